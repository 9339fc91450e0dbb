/* SPDX-License-Identifier: MIT */
/*
 * The benchmark timer: the cheapest serializing counter the CPU offers.
 * x86: lfence;rdtsc;lfence to start and rdtscp;lfence to stop, so the
 * timed calls can neither start before the first reading nor finish
 * after the second (never cpuid, which traps in a VM). arm64: the virtual
 * counter between isb barriers. Elsewhere clock_gettime(MONOTONIC_RAW).
 * Ticks are converted with a rate calibrated against CLOCK_MONOTONIC_RAW.
 * VDSOKIT_TIMER=clock_gettime picks the last everywhere: valgrind cannot
 * run rdtscp, and its runs of bench and compare check memory, not speed.
 */
#ifndef VK_TIMER_H
#define VK_TIMER_H

#include <stdint.h>
#include <time.h>

struct vk_timer {
	const char *name;	/* "tsc", "cntvct" or "clock_gettime" */
	double ns_per_tick;
	double overhead;	/* ticks of an empty start/stop pair (the minimum) */
};

extern int vk_timer_by_clock;	/* ticks are CLOCK_MONOTONIC_RAW's nanoseconds */

static inline uint64_t vk_clock_ticks(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

#if defined(__x86_64__) || defined(__i386__)
#define VK_TIMER_NAME "tsc"
static inline uint64_t vk_tick_start(void)
{
	uint32_t lo, hi;

	if (vk_timer_by_clock)
		return vk_clock_ticks();
	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi)::"memory");
	return (uint64_t)hi << 32 | lo;
}

static inline uint64_t vk_tick_stop(void)
{
	uint32_t lo, hi, aux;

	if (vk_timer_by_clock)
		return vk_clock_ticks();
	__asm__ volatile("rdtscp; lfence" : "=a"(lo), "=d"(hi), "=c"(aux)::"memory");
	return (uint64_t)hi << 32 | lo;
}
#elif defined(__aarch64__)
#define VK_TIMER_NAME "cntvct"
static inline uint64_t vk_tick_start(void)
{
	uint64_t t;

	if (vk_timer_by_clock)
		return vk_clock_ticks();
	__asm__ volatile("isb; mrs %0, cntvct_el0; isb" : "=r"(t)::"memory");
	return t;
}

static inline uint64_t vk_tick_stop(void)
{
	return vk_tick_start();
}
#else
#define VK_TIMER_NAME "clock_gettime"
#define VK_TIMER_IS_RAW 1
static inline uint64_t vk_tick_start(void)
{
	return vk_clock_ticks();
}

static inline uint64_t vk_tick_stop(void)
{
	return vk_tick_start();
}
#endif

/* Calibrate the rate (about 0.1 s) and measure the timer's own cost. */
int vk_timer_init(struct vk_timer *t);
/* The timer's name, after VDSOKIT_TIMER's choice: "tsc", "clock_gettime"... */
const char *vk_timer_choose(void);

#endif /* VK_TIMER_H */
