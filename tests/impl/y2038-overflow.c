// SPDX-License-Identifier: MIT
/*
 * Caught by timens on a 32-bit ABI: past 2^31 s its time32 clock_gettime
 * fails with EOVERFLOW, where the kernel's time32 syscall wraps tv_sec.
 * The vDSO must do what the syscall does. (On a 64-bit ABI tv_sec never
 * overflows, and this is the pass-through.)
 */
#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
#ifdef IMPL_TIME64
	struct impl_kts64 t;
	int r = __vdso_clock_gettime64(clock, &t);

	if (r)
		return r;
	if (t.sec != (long)t.sec)
		return -EOVERFLOW;
	ts->sec = t.sec;
	ts->nsec = t.nsec;
	return 0;
#else
	return impl_sys_clock_gettime(clock, ts);
#endif
}
