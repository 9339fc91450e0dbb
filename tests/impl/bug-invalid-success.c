// SPDX-License-Identifier: MIT
/* Caught by: errno. Ids 12 and up succeed with a zero time: no bounds check. */
#define IMPL_OWN_CLOCK_GETTIME
#define IMPL_OWN_CLOCK_GETRES
#include "impl.h"

/* Past CLOCK_TAI (11); negative ids are CPU clocks, which are valid. */
static int unchecked(clockid_t clock, struct impl_kts *ts)
{
	if (clock <= CLOCK_TAI)
		return 1;
	if (ts)
		ts->sec = ts->nsec = 0;
	return 0;
}

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	return unchecked(clock, ts) ? impl_sys_clock_gettime(clock, ts) : 0;
}

int __vdso_clock_getres(clockid_t clock, struct impl_kts *res)
{
	return unchecked(clock, res) ? impl_sys_clock_getres(clock, res) : 0;
}
