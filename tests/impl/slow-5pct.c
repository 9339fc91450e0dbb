// SPDX-License-Identifier: MIT
/*
 * Not a bug: the pass-through, with clock_gettime made slower by a fixed
 * fraction (5%, or $VK_SLOWDOWN_PCT) of its own cost, calibrated when the
 * library first loads. make bench-quality uses it to learn whether compare
 * calls a slowdown of that size significant.
 *
 * The count is calibrated once and kept in $VK_SLOWDOWN_SPINS, which every
 * later load in this process (compare --impl loads copies) and every
 * process it starts (bench's workers) reads: one slowdown, as one build
 * of slower code would be, not one per load, each as noisy as the moment
 * it was measured in.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

static unsigned long spins;

/*
 * n empty steps, which nothing after them may overlap: where the CPU
 * could run a few of them beside the next call's setup, the slowdown
 * would depend on the caller's code around the call, and a plant measured
 * in its own loop would not be the one compare measures.
 */
static __attribute__((noinline)) void spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		__asm__ volatile("" ::: "memory");
#if defined(__x86_64__) || defined(__i386__)
	if (n)
		__asm__ volatile("lfence" ::: "memory");
#endif
}

static double ns_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Per call, the cheapest of 100 rounds of 200 calls each followed by k
 * spins: the cheapest, because a busy machine only ever makes a round
 * slower. */
static double cost(unsigned long k)
{
	double best = 1e300;

	for (int r = 0; r < 100; r++) {
		double t0 = ns_now(), per_call;
		struct impl_kts ts;

		for (int i = 0; i < 200; i++) {
			impl_sys_clock_gettime(CLOCK_MONOTONIC, &ts);
			spin(k);
		}
		per_call = (ns_now() - t0) / 200;
		if (per_call < best)
			best = per_call;
	}
	return best;
}

/* cost(n) / cost(0) - 1: the median of 7, each pair measured together. */
static double slowdown(unsigned long n)
{
	double r[7], x;
	int i, j;

	for (i = 0; i < 7; i++) {
		x = cost(n) / cost(0) - 1;
		for (j = i; j > 0 && r[j - 1] > x; j--)
			r[j] = r[j - 1];
		r[j] = x;
	}
	return r[3];
}

/*
 * Spins are counted where they run, after the call: there a spin costs
 * less than in a loop of its own, as the CPU overlaps it with the call's
 * return, so the count is measured, then corrected by what it gives,
 * three times over.
 */
static unsigned long calibrated(void)
{
	const char *pct = getenv("VK_SLOWDOWN_PCT");
	double want = (pct ? atof(pct) : 5) / 100, base = cost(0);
	double per_spin = (cost(1000) - base) / 1000, got;
	unsigned long n;

	if (!(per_spin > 0))
		return 0;
	n = (unsigned long)(want * base / per_spin + 0.5);
	for (int k = 0; k < 3; k++) {
		got = slowdown(n);
		if (!(got > 0))
			break;
		n = (unsigned long)(n * want / got + 0.5);
	}
	return n;
}

__attribute__((constructor)) static void calibrate(void)
{
	const char *kept = getenv("VK_SLOWDOWN_SPINS");
	char buf[32];

	if (kept) {
		spins = strtoul(kept, NULL, 10);
		return;
	}
	spins = calibrated();
	snprintf(buf, sizeof(buf), "%lu", spins);
	setenv("VK_SLOWDOWN_SPINS", buf, 1);
}

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	int r = impl_sys_clock_gettime(clock, ts);

	spin(spins);
	return r;
}
