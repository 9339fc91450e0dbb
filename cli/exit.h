/* SPDX-License-Identifier: MIT */
#ifndef VK_EXIT_H
#define VK_EXIT_H

/* Exit statuses, kselftest's where they overlap. */
enum vk_exit {
	VK_EXIT_OK = 0,		/* every check passed */
	VK_EXIT_FAIL = 1,	/* a check failed */
	VK_EXIT_USAGE = 2,	/* bad arguments or bad input */
	VK_EXIT_ERROR = 3,	/* vdsokit's own error, and no check failed */
	VK_EXIT_SKIP = 4,	/* nothing could run, e.g. no vDSO */
};

/* A command's status from how its checks went: a failure outweighs
 * vdsokit's own error, which outweighs a run where everything skipped. */
static inline int vk_exit_of(unsigned long long fails, unsigned long long errors, int ran)
{
	if (fails)
		return VK_EXIT_FAIL;
	if (errors)
		return VK_EXIT_ERROR;
	return ran ? VK_EXIT_OK : VK_EXIT_SKIP;
}

#endif /* VK_EXIT_H */
