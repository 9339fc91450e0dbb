// SPDX-License-Identifier: MIT
/*
 * stress's rules: from what the readers saw in each fault step, which clock
 * stepped back, jumped or disagreed with the syscall (stress.h).
 */
#include <math.h>
#include <time.h>

#include "core/stress/stress_judge.h"

int vk_stress_monotonic(int clock)
{
	return clock == CLOCK_MONOTONIC || clock == CLOCK_MONOTONIC_RAW ||
	       clock == CLOCK_BOOTTIME || clock == CLOCK_MONOTONIC_COARSE;
}

/* The fine clocks the syscall reads as the vDSO does; the coarse ones
 * may lag it by a tick, so only their steps back are judged. */
static int fine(int clock)
{
	return clock == CLOCK_REALTIME || clock == CLOCK_MONOTONIC ||
	       clock == CLOCK_MONOTONIC_RAW || clock == CLOCK_BOOTTIME || clock == CLOCK_TAI;
}

int vk_stress_judge(int clock, int64_t prev, int64_t before, int64_t got, int64_t after,
		    int quiet, int64_t max_jump)
{
	int bad = 0;

	if (vk_stress_monotonic(clock) && got < prev)
		bad |= VK_STRESS_BACK;
	if (vk_stress_monotonic(clock) && max_jump && got - prev > max_jump)
		bad |= VK_STRESS_JUMP;
	if (fine(clock) && quiet && (got < before || got > after))
		bad |= VK_STRESS_ORDER;
	return bad;
}

int vk_stress_pause_judge(int64_t sec, int64_t rtc_s, int64_t mono_ns)
{
	if (mono_ns > (rtc_s + 1) * 1000000000)
		return VK_STRESS_JUMP;
	return rtc_s - mono_ns / 1000000000 < sec - 1 ? -1 : 0;
}

double vk_stress_rate_ppm(int64_t mono_ns, int64_t raw_ns)
{
	return ((double)mono_ns / raw_ns - 1) * 1e6;
}

/* Each end's instant is known to half its bracket. */
double vk_stress_rate_uncertainty_ppm(int64_t bracket0, int64_t bracket1, int64_t raw_ns)
{
	return raw_ns > 0 ? (bracket0 + bracket1) / 2.0 / raw_ns * 1e6 : INFINITY;
}

int vk_stress_rate_judge(double want_ppm, double got_ppm, double uncertainty_ppm)
{
	double off = fabs(got_ppm - want_ppm);

	if (off > VK_STRESS_RATE_TOLERANCE_PPM + uncertainty_ppm)
		return VK_STRESS_ORDER;
	return uncertainty_ppm > VK_STRESS_RATE_TOLERANCE_PPM ? -1 : 0;
}

int vk_stress_leap_judge(int64_t real_ns, int64_t tai_ns, int64_t within)
{
	int64_t off = real_ns + 1000000000;

	if (off > within || -off > within || tai_ns > within || -tai_ns > within)
		return VK_STRESS_ORDER;
	return 0;
}
