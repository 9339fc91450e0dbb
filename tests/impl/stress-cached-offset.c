// SPDX-License-Identifier: MIT
/*
 * Caught by: stress, inside vdsokit vm, when REALTIME is stepped
 * (settime, ADJ_SETOFFSET). A userspace clock that caches kernel state:
 * REALTIME is MONOTONIC plus the offset between them at load time, right
 * until the first step and off by it from then on.
 */
#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

static int64_t offset;		/* REALTIME - MONOTONIC at load, ns */

static int64_t ns_of(const struct impl_kts *t)
{
	return (int64_t)t->sec * IMPL_NSEC_PER_SEC + t->nsec;
}

/*
 * As exact as syscalls allow: MONOTONIC read between two REALTIME reads,
 * the closest pair of many, at its middle: off by less than one syscall,
 * less than stress's bracket of two syscalls around a call leaves.
 */
__attribute__((constructor)) static void load(void)
{
	int64_t best = INT64_MAX;

	for (int i = 0; i < 1000; i++) {
		struct impl_kts r1, m, r2;

		impl_sys_clock_gettime(CLOCK_REALTIME, &r1);
		impl_sys_clock_gettime(CLOCK_MONOTONIC, &m);
		impl_sys_clock_gettime(CLOCK_REALTIME, &r2);
		if (ns_of(&r2) - ns_of(&r1) < best) {
			best = ns_of(&r2) - ns_of(&r1);
			offset = ns_of(&r1) + best / 2 - ns_of(&m);
		}
	}
}

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	int r = impl_sys_clock_gettime(clock == CLOCK_REALTIME ? CLOCK_MONOTONIC : clock, ts);
	int64_t t;

	if (r || clock != CLOCK_REALTIME)
		return r;
	t = ns_of(ts) + offset;
	ts->sec = t / IMPL_NSEC_PER_SEC;
	ts->nsec = t % IMPL_NSEC_PER_SEC;
	return 0;
}
