// SPDX-License-Identifier: MIT
/*
 * No bug: the coarse clocks move once by part of a tick, as the kernel's
 * do when it changes clocksource (timekeeping_forward_now()), and run
 * that far ahead of the kernel's from then on. coarse-step must note it,
 * not fail. Only clock_getres's checks may be run against it (coarse-step
 * reads its clock_gettime); ordered would see the shift.
 */
#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

#define PART_PCT 43		/* of the resolution */
#define AFTER 4			/* changes of the clock's reading */

/* Per coarse clock; verify reads them from one thread. */
static struct {
	long long last;
	int changes;
	long part;
} coarse[2];

static long long ns(const struct impl_kts *ts)
{
	return ts->sec * 1000000000LL + ts->nsec;
}

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	int r = impl_sys_clock_gettime(clock, ts), i = clock == CLOCK_MONOTONIC_COARSE;
	struct impl_kts res;

	if (r || (clock != CLOCK_REALTIME_COARSE && clock != CLOCK_MONOTONIC_COARSE))
		return r;
	if (ns(ts) != coarse[i].last) {
		coarse[i].last = ns(ts);
		if (++coarse[i].changes == AFTER && !impl_sys_clock_getres(clock, &res))
			coarse[i].part = res.nsec * PART_PCT / 100;
	}
	impl_ts_add_ns(ts, coarse[i].part);
	return r;
}
