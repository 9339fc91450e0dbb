// SPDX-License-Identifier: MIT
/*
 * The timed loops. Each is a plain counted loop around one call, kept out
 * of line so every path is measured with the same loop code; the empty asm
 * stops the compiler from merging or hoisting calls it thinks are pure.
 * The libc loops call libc directly, as a program would, so that no
 * wrapper of ours is counted in libc's figure. Each call's result is an
 * input of the asm, so that none is dropped and none warned about
 * (_FORTIFY_SOURCE marks getrandom warn_unused_result).
 */
#include <sched.h>
#include <sys/random.h>
#include <sys/time.h>
#include <time.h>

#include "core/bench/bench.h"

/*
 * What a call needs is copied into locals first (each loop uses some):
 * the empty asm's memory clobber would otherwise reload it from *s on
 * every iteration, loads (about 1% of a 25 ns call) that are no part of
 * the call's cost.
 */
#define LOOP(name, call)                                                        \
	static __attribute__((noinline)) void name(struct vk_call_site *s,      \
						   unsigned long n)             \
	{                                                                       \
		__attribute__((unused)) union vk_fn fn = s->fn;                 \
		__attribute__((unused)) clockid_t clock = s->clock;             \
		__attribute__((unused)) void *state = s->state;                 \
		__attribute__((unused)) size_t state_len = s->state_len;        \
									        \
		for (unsigned long i = 0; i < n; i++)                           \
			__asm__ volatile("" :: "g"(call) : "memory");           \
	}

LOOP(loop_clock, fn.clock(clock, &s->ts))
LOOP(loop_tod, fn.tod(&s->tv, NULL))
LOOP(loop_time, fn.time(NULL))
LOOP(loop_getcpu, fn.getcpu(&s->cpu, &s->node, NULL))
LOOP(loop_getrandom, fn.getrandom(s->buf, sizeof(s->buf), 0, state, state_len))
LOOP(libc_clock_gettime, clock_gettime(clock, (struct timespec *)&s->ts))
LOOP(libc_clock_getres, clock_getres(clock, (struct timespec *)&s->ts))
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
