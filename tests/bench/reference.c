// SPDX-License-Identifier: MIT
/*
 * The reference bench compares with: the plainest honest loop around the
 * vDSO's clock_gettime(CLOCK_MONOTONIC), timed by CLOCK_MONOTONIC_RAW
 * around 10^4 calls (a quarter of a millisecond), where the timer's cost
 * and granularity vanish without any cleverness; the best of 4000 runs is
 * printed in ns per call. Runs that short are mostly not disturbed even
 * on a busy machine, where runs of 10^7 calls never were.
 */
#include <stdio.h>
#include <time.h>

#include "core/image/image.h"

#define CALLS 10000L
#define RUNS 4000

typedef int (*gettime_fn)(clockid_t, struct timespec *);

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static __attribute__((noinline)) void loop(gettime_fn fn, struct timespec *ts, long n)
{
	for (long i = 0; i < n; i++) {
		fn(CLOCK_MONOTONIC, ts);
		__asm__ volatile("" ::: "memory");
	}
}

int main(void)
{
	struct vk_image_func f;
	struct vk_image im;
	struct timespec ts;
	double best = 1e300;
	gettime_fn fn;

	if (vk_image_open_live(&im) || vk_image_func(&im, VK_FN_CLOCK_GETTIME, &f)) {
		fprintf(stderr, "reference: no vDSO clock_gettime\n");
		return 4;
	}
	fn = (gettime_fn)vk_image_addr(&im, &f.sym);
	loop(fn, &ts, CALLS * 100);
	for (int r = 0; r < RUNS; r++) {
		double t0 = now(), per_call;

		loop(fn, &ts, CALLS);
		per_call = (now() - t0) / CALLS;
		if (per_call < best)
			best = per_call;
	}
	printf("%.3f\n", best);
	return 0;
}
