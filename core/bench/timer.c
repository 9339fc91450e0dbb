// SPDX-License-Identifier: MIT
/*
 * The timer bench's batches are timed with: a fenced cycle counter where
 * the CPU has one, calibrated against CLOCK_MONOTONIC_RAW (timer.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bench/timer.h"

/* The cost of the timer itself: the cheapest empty start/stop pair. */
static void measure_overhead(struct vk_timer *t)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 100000; i++) {
		uint64_t a = vk_tick_start(), b = vk_tick_stop();

		if (b - a < best)
			best = b - a;
	}
	t->overhead = best;
}

#define CALIBRATE_NS 50000000	/* twice: the two rates must agree */

static int64_t raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * The counter and CLOCK_MONOTONIC_RAW read together: the tightest of a few
 * counter brackets around the clock, so that a preemption between the two
 * reads (milliseconds on a busy host) cannot skew the rate.
 */
static void read_pair(int64_t *ns, uint64_t *ticks)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 16; i++) {
		uint64_t a = vk_tick_start();
		int64_t n = raw_ns();
		uint64_t b = vk_tick_stop();

		if (b - a < best) {
			best = b - a;
			*ns = n;
			*ticks = a + (b - a) / 2;
		}
	}
}

/* Ticks per CLOCK_MONOTONIC_RAW nanosecond over one interval. */
static double rate(void)
{
	int64_t n0, n1;
	uint64_t t0, t1;

	read_pair(&n0, &t0);
	do {
		read_pair(&n1, &t1);
	} while (n1 - n0 < CALIBRATE_NS);
	return (double)(t1 - t0) / (double)(n1 - n0);
}

/* A counter whose rate drifts between two calibrations (a TSC that is not
 * invariant, a migrating VM) cannot be trusted. CLOCK_MONOTONIC_RAW is the
 * reference itself: its rate is 1, and calibrating it would only measure
 * its jitter (under emulation, more than the 0.1% a counter may drift). */
static int calibrate(struct vk_timer *t)
{
	double r1, r2;

	if (vk_timer_by_clock) {
		t->ns_per_tick = 1;
		return 0;
	}
	r1 = rate();
	r2 = rate();
	if (!(r1 > 0) || fabs(r1 - r2) / r1 > 0.001)
		return -1;
	t->ns_per_tick = 2 / (r1 + r2);
	return 0;
}

int vk_timer_by_clock;

const char *vk_timer_choose(void)
{
	const char *want = getenv("VDSOKIT_TIMER");

#ifdef VK_TIMER_IS_RAW
	vk_timer_by_clock = 1;
#else
	vk_timer_by_clock = want && !strcmp(want, "clock_gettime");
#endif
	(void)want;
	return vk_timer_by_clock ? "clock_gettime" : VK_TIMER_NAME;
}

int vk_timer_init(struct vk_timer *t)
{
	t->name = vk_timer_choose();
	if (calibrate(t))
		return -1;
	measure_overhead(t);
	return 0;
}
