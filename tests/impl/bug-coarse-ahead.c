// SPDX-License-Identifier: MIT
/* Caught by: coarse-bound. MONOTONIC_COARSE is the fine clock plus 1 ms. */
#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	int r;

	if (clock != CLOCK_MONOTONIC_COARSE)
		return impl_sys_clock_gettime(clock, ts);
	r = impl_sys_clock_gettime(CLOCK_MONOTONIC, ts);
	if (!r)
		impl_ts_add_ns(ts, 1000000);
	return r;
}
