// SPDX-License-Identifier: MIT
/* Caught by: errno. CLOCK_TAI is refused with -EINVAL, so the
 * tai-offset relation can compare nothing and must not pass. */
#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	if (clock == CLOCK_TAI)
		return -EINVAL;
	return impl_sys_clock_gettime(clock, ts);
}
