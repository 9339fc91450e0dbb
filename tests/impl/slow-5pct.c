// SPDX-License-Identifier: MIT
/*
 * Not a bug: the pass-through, with clock_gettime made slower by a fixed
 * fraction (5%, or $VK_SLOWDOWN_PCT) of its own cost, calibrated when the
 * library loads. make bench-quality uses it to learn whether compare
 * calls a slowdown of that size significant.
 */
#include <stdlib.h>
#include <time.h>

#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

static unsigned long spins;

static __attribute__((noinline)) void spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		__asm__ volatile("" ::: "memory");
}

static double ns_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* The cheapest of 100 rounds of n calls of fn(arg), per call: the
 * cheapest, because a busy machine only ever makes a round slower. */
static double cost(void (*fn)(unsigned long), unsigned long arg, int n)
{
	double best = 1e300;

	for (int r = 0; r < 100; r++) {
		double t0 = ns_now(), per_call;

		for (int i = 0; i < n; i++)
			fn(arg);
		per_call = (ns_now() - t0) / n;
		if (per_call < best)
			best = per_call;
	}
	return best;
}

static void one_call(unsigned long unused)
{
	struct impl_kts ts;

	(void)unused;
	impl_sys_clock_gettime(CLOCK_MONOTONIC, &ts);
}

__attribute__((constructor)) static void calibrate(void)
{
	const char *pct = getenv("VK_SLOWDOWN_PCT");
	double want = (pct ? atof(pct) : 5) / 100 * cost(one_call, 0, 200);
	/* 100000 spins take tens of microseconds: the clock's cost vanishes. */
	double per_spin = cost(spin, 100000, 1) / 100000;

	spins = per_spin > 0 ? (unsigned long)(want / per_spin + 0.5) : 0;
}

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	int r = impl_sys_clock_gettime(clock, ts);

	spin(spins);
	return r;
}
