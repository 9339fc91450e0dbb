/* SPDX-License-Identifier: MIT */
/*
 * One set of time namespace offsets: what timens runs checks under and
 * what timens_rules judges their readings against.
 */
#ifndef VK_TIMENS_SET_H
#define VK_TIMENS_SET_H

#include <stdint.h>

struct vk_timens_set {
	char name[24];			/* "small", "past-2^31", ... */
	int64_t mono_ns, boot_ns;	/* offsets: seconds and nanoseconds */
};

#endif /* VK_TIMENS_SET_H */
