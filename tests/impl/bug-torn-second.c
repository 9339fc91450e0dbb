// SPDX-License-Identifier: MIT
/*
 * Caught by: second-edge. clock_gettime and gettimeofday take the seconds
 * from one syscall reading and the fraction from the next, as a reader
 * without a sequence count does: across a second boundary the reading
 * goes back by a whole second, and is right everywhere else.
 */
#define IMPL_OWN_CLOCK_GETTIME
#define IMPL_OWN_GETTIMEOFDAY
#include "impl.h"

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	struct impl_kts next;
	int r = impl_sys_clock_gettime(clock, ts);

	if (r || impl_sys_clock_gettime(clock, &next))
		return r;
	ts->nsec = next.nsec;
	return 0;
}

int __vdso_gettimeofday(struct impl_ktv *tv, void *tz)
{
	struct impl_ktv next;
	int r = impl_sys_gettimeofday(tv, tz);

	if (r || !tv || impl_sys_gettimeofday(&next, NULL))
		return r;
	tv->usec = next.usec;
	return 0;
}
