// SPDX-License-Identifier: MIT
/* Caught by: bench --threads. clock_gettime fails with -EINVAL in every
 * thread but a process's first, so only the threads' calls fail. */
#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	static __thread int other = -1;	/* whether this is not the first thread */

	if (other < 0)
		other = impl_syscall(SYS_gettid, 0, 0, 0) != getpid();
	if (other)
		return -EINVAL;
	return impl_sys_clock_gettime(clock, ts);
}
