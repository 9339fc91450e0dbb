// SPDX-License-Identifier: MIT
/*
 * For fallback: clock_gettime goes through libc (so through the kernel's
 * vDSO, in userspace wherever it is) for every clock but CLOCK_TAI, which
 * it asks the kernel for. fallback must name exactly that difference.
 */
#include <time.h>

#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	if (clock == CLOCK_TAI)
		return impl_sys_clock_gettime(clock, ts);
	return clock_gettime(clock, (struct timespec *)ts) ? -22 : 0;
}
