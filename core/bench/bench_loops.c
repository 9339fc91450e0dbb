// SPDX-License-Identifier: MIT
/*
 * The timed loops. Each is a plain counted loop around one call, kept out
 * of line so every path is measured with the same loop code; the empty asm
 * stops the compiler from merging or hoisting calls it thinks are pure.
 * The libc loops call libc directly, as a program would, so that no
 * wrapper of ours is counted in libc's figure. Each call's result is
 * checked, as a failed call costs what it likes (an -EINVAL returned at
 * once, a syscall refused by seccomp) and is no figure of the call, and
 * is an input of the asm, so that none is dropped.
 */
#include <errno.h>
#include <sched.h>
#include <sys/random.h>
#include <sys/time.h>
#include <time.h>

#include "core/bench/bench.h"

/*
 * What a call needs is copied into locals first (each loop uses some):
 * the empty asm's memory clobber would otherwise reload it from *s on
 * every iteration, loads (about 1% of a 25 ns call) that are no part of
 * the call's cost. A call that fails otherwise than the kernel answers
 * it (s->expect) is counted in *s, never in a local: the check is then
 * one compare and a branch never taken, with no register kept across the
 * call for it.
 */
#define LOOP(name, call, failed, error)                                         \
	static __attribute__((noinline)) void name(struct vk_call_site *s,      \
						   unsigned long n)             \
	{                                                                       \
		__attribute__((unused)) union vk_fn fn = s->fn;                 \
		__attribute__((unused)) clockid_t clock = s->clock;             \
		__attribute__((unused)) void *state = s->state;                 \
		__attribute__((unused)) size_t state_len = s->state_len;        \
									        \
		for (unsigned long i = 0; i < n; i++) {                         \
			long r = (long)(call);                                  \
									        \
			if (__builtin_expect(failed(r), 0) &&                   \
			    error(r) != s->expect) {                            \
				s->fails++;                                     \
				s->err = error(r);                              \
			}                                                       \
			__asm__ volatile("" :: "g"(r) : "memory");              \
		}                                                               \
		s->calls += n;                                                  \
	}

/* The vDSO's convention (the syscall and impl paths' too): -errno. */
#define VDSO_FAILED(r) ((unsigned long)(r) > -4096UL)
#define VDSO_ERR(r) ((int)-(r))
/* libc's: -1, and errno. */
#define LIBC_FAILED(r) ((r) == -1)
#define LIBC_ERR(r) errno

LOOP(loop_clock, fn.clock(clock, &s->ts), VDSO_FAILED, VDSO_ERR)
LOOP(loop_tod, fn.tod(&s->tv, NULL), VDSO_FAILED, VDSO_ERR)
LOOP(loop_time, fn.time(NULL), VDSO_FAILED, VDSO_ERR)
LOOP(loop_getcpu, fn.getcpu(&s->cpu, &s->node, NULL), VDSO_FAILED, VDSO_ERR)
LOOP(loop_getrandom, fn.getrandom(s->buf, sizeof(s->buf), 0, state, state_len), VDSO_FAILED,
     VDSO_ERR)
LOOP(libc_clock_gettime, clock_gettime(clock, (struct timespec *)&s->ts), LIBC_FAILED, LIBC_ERR)
LOOP(libc_clock_getres, clock_getres(clock, (struct timespec *)&s->ts), LIBC_FAILED, LIBC_ERR)
LOOP(libc_gettimeofday, gettimeofday((struct timeval *)&s->tv, NULL), LIBC_FAILED, LIBC_ERR)
LOOP(libc_time, time(NULL), LIBC_FAILED, LIBC_ERR)
LOOP(libc_getcpu, sched_getcpu(), LIBC_FAILED, LIBC_ERR)
LOOP(libc_getrandom, getrandom(s->buf, sizeof(s->buf), 0), LIBC_FAILED, LIBC_ERR)

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
