/* SPDX-License-Identifier: MIT */
#ifndef VK_EXIT_H
#define VK_EXIT_H

/* Exit statuses, kselftest's where they overlap. */
enum vk_exit {
	VK_EXIT_OK = 0,		/* every check passed */
	VK_EXIT_FAIL = 1,	/* a check failed */
	VK_EXIT_USAGE = 2,	/* bad arguments or bad input */
	VK_EXIT_SKIP = 4,	/* nothing could run, e.g. no vDSO */
};

#endif /* VK_EXIT_H */
