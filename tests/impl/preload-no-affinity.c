// SPDX-License-Identifier: MIT
/* Not an --impl: an LD_PRELOAD library under which vdsokit cannot read
 * its CPU affinity, to show that a check that could not run fails. */
#include <errno.h>
#include <sched.h>

int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set)
{
	(void)pid, (void)size, (void)set;
	errno = EINVAL;
	return -1;
}
