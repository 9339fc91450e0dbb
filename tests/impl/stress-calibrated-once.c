// SPDX-License-Identifier: MIT
/*
 * Caught by: stress, inside vdsokit vm, under a slew (adjtimex's
 * frequency). A userspace clock that caches kernel state: MONOTONIC
 * extrapolated from a counter (MONOTONIC_RAW, as a TSC would be) at the
 * rate adjtimex gave at load. Each thread re-anchors every 100 ms, as the
 * kernel refreshes the vDSO's base every tick, but the rate is never asked
 * again, so under a slew of 500 ppm it is up to 50 us off.
 */
#define IMPL_OWN_CLOCK_GETTIME
#include <sys/timex.h>

#include "impl.h"

#define ANCHOR_NS 100000000LL

static double rate;		/* MONOTONIC ns per RAW ns */
static __thread int64_t raw0 = -ANCHOR_NS - 1, mono0;

static int64_t ns_of(const struct impl_kts *t)
{
	return (int64_t)t->sec * IMPL_NSEC_PER_SEC + t->nsec;
}

static int64_t sys_ns(clockid_t clock)
{
	struct impl_kts t;

	impl_sys_clock_gettime(clock, &t);
	return ns_of(&t);
}

/* adjtimex's frequency is in ppm with 16 fractional bits. */
__attribute__((constructor)) static void load(void)
{
	struct timex tx = { 0 };

	adjtimex(&tx);
	rate = 1 + tx.freq / 65536e6;
}

/*
 * MONOTONIC read between two counter reads, the closest pair of eight, at
 * its middle: off by less than one syscall, less than stress's bracket of
 * two syscalls around a call leaves.
 */
static void anchor(void)
{
	int64_t best = INT64_MAX;

	for (int i = 0; i < 8; i++) {
		int64_t r1 = sys_ns(CLOCK_MONOTONIC_RAW), m = sys_ns(CLOCK_MONOTONIC);
		int64_t r2 = sys_ns(CLOCK_MONOTONIC_RAW);

		if (r2 - r1 < best) {
			best = r2 - r1;
			raw0 = r1 + best / 2;
			mono0 = m;
		}
	}
}

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	int64_t raw, t;

	if (clock != CLOCK_MONOTONIC)
		return impl_sys_clock_gettime(clock, ts);
	raw = sys_ns(CLOCK_MONOTONIC_RAW);
	if (raw - raw0 > ANCHOR_NS) {
		anchor();
		raw = sys_ns(CLOCK_MONOTONIC_RAW);
	}
	t = mono0 + (int64_t)((raw - raw0) * rate);
	ts->sec = t / IMPL_NSEC_PER_SEC;
	ts->nsec = t % IMPL_NSEC_PER_SEC;
	return 0;
}
