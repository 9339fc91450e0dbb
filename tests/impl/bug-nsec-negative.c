// SPDX-License-Identifier: MIT
/*
 * Caught by: normalized (once in 100 readings tv_nsec is -5) and
 * resolution (every clock's is tv_sec 0, tv_nsec -5): a negative
 * tv_nsec, which a report must not show as a time ("20109.-00000005").
 */
#define IMPL_OWN_CLOCK_GETTIME
#define IMPL_OWN_CLOCK_GETRES
#include "impl.h"

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	static unsigned long calls;
	int r = impl_sys_clock_gettime(clock, ts);

	if (!r && __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED) % 100 == 0)
		ts->nsec = -5;
	return r;
}

int __vdso_clock_getres(clockid_t clock, struct impl_kts *res)
{
	int r = impl_sys_clock_getres(clock, res);

	if (!r && res) {
		res->sec = 0;
		res->nsec = -5;
	}
	return r;
}
