/* SPDX-License-Identifier: MIT */
/* The array helper every folder shares: an array's length. */
#ifndef VK_BASE_ARRAY_H
#define VK_BASE_ARRAY_H

/* The number of elements of an array (never of a pointer). */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
