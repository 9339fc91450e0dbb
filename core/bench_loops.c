// SPDX-License-Identifier: MIT
/*
 * The timed loops. Each is a plain counted loop around one call, kept out
 * of line so every path is measured with the same loop code; the empty asm
 * stops the compiler from merging or hoisting calls it thinks are pure.
 * The libc loops call libc directly, as a program would, so that no
 * wrapper of ours is counted in libc's figure.
 */
#include <sched.h>
#include <sys/random.h>
#include <sys/time.h>
#include <time.h>

#include "bench.h"

#define LOOP(name, call)                                                        \
	static __attribute__((noinline)) void name(struct vk_call_site *s,      \
						   unsigned long n)             \
	{                                                                       \
		(void)s;                                                        \
		for (unsigned long i = 0; i < n; i++) {                         \
			call;                                                   \
			__asm__ volatile("" ::: "memory");                      \
		}                                                               \
	}

LOOP(loop_clock, s->fn.clock(s->clock, &s->ts))
LOOP(loop_tod, s->fn.tod(&s->tv, NULL))
LOOP(loop_time, s->fn.time(NULL))
LOOP(loop_getcpu, s->fn.getcpu(&s->cpu, &s->node, NULL))
LOOP(loop_getrandom, s->fn.getrandom(s->buf, sizeof(s->buf), 0, s->state, s->state_len))
LOOP(libc_clock_gettime, clock_gettime(s->clock, (struct timespec *)&s->ts))
LOOP(libc_clock_getres, clock_getres(s->clock, (struct timespec *)&s->ts))
LOOP(libc_gettimeofday, gettimeofday((struct timeval *)&s->tv, NULL))
LOOP(libc_time, time(NULL))
LOOP(libc_getcpu, sched_getcpu())
LOOP(libc_getrandom, getrandom(s->buf, sizeof(s->buf), 0))

vk_loop vk_loop_for(enum vk_func f, int libc)
{
	switch (f) {
	case VK_FN_CLOCK_GETTIME:
	case VK_FN_CLOCK_GETTIME64:
		return libc ? libc_clock_gettime : loop_clock;
	case VK_FN_CLOCK_GETRES:
	case VK_FN_CLOCK_GETRES_TIME64:
		return libc ? libc_clock_getres : loop_clock;
	case VK_FN_GETTIMEOFDAY:
		return libc ? libc_gettimeofday : loop_tod;
	case VK_FN_TIME:
		return libc ? libc_time : loop_time;
	case VK_FN_GETCPU:
		return libc ? libc_getcpu : loop_getcpu;
	case VK_FN_GETRANDOM:
		return libc ? libc_getrandom : loop_getrandom;
	default:
		return NULL;
	}
}
