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
 * A negative return, out of line: an error (-errno in the vDSO's
 * convention, the syscall's and impl's too; -1 and errno in libc's) is
 * counted in *s unless the kernel answers the call so too (s->expect).
 * errno is read first thing, before anything can change it.
 */
static __attribute__((noinline, cold)) void vdso_negative(struct vk_call_site *s, long r)
{
	if (r >= -4095 && -r != s->expect) {
		s->fails++;
		s->err = -r;
	}
}

static __attribute__((noinline, cold)) void libc_negative(struct vk_call_site *s, long r)
{
	int e = errno;

	if (r == -1 && e != s->expect) {
		s->fails++;
		s->err = e;
	}
}

/*
 * What a call needs is copied into locals first (each loop uses some):
 * the empty asm's memory clobber would otherwise reload it from *s on
 * every iteration, loads (about 1% of a 25 ns call) that are no part of
 * the call's cost. The result keeps the call's own type, so that the
 * check is one test of its sign and a branch never taken: a widened or
 * saved copy cost a 2 ns call 10% here.
 */
#define LOOP(name, call, negative)                                              \
	static __attribute__((noinline)) void name(struct vk_call_site *s,      \
						   unsigned long n)             \
	{                                                                       \
		__attribute__((unused)) union vk_fn fn = s->fn;                 \
		__attribute__((unused)) clockid_t clock = s->clock;             \
		__attribute__((unused)) void *state = s->state;                 \
		__attribute__((unused)) size_t state_len = s->state_len;        \
		__attribute__((unused)) unsigned char *buf = s->buf;            \
		__attribute__((unused)) size_t len = s->len;                    \
									        \
		for (unsigned long i = 0; i < n; i++) {                         \
			__typeof__(call) r = call;                              \
									        \
			if (__builtin_expect(r < 0, 0))                         \
				negative(s, r);                                 \
			__asm__ volatile("" :: "g"(r) : "memory");              \
		}                                                               \
		s->calls += n;                                                  \
	}

LOOP(loop_clock, fn.clock(clock, &s->ts), vdso_negative)
LOOP(loop_tod, fn.tod(&s->tv, NULL), vdso_negative)
LOOP(loop_time, fn.time(NULL), vdso_negative)
LOOP(loop_getcpu, fn.getcpu(&s->cpu, &s->node, NULL), vdso_negative)
LOOP(loop_getrandom, fn.getrandom(buf, len, 0, state, state_len), vdso_negative)
LOOP(libc_clock_gettime, clock_gettime(clock, (struct timespec *)&s->ts), libc_negative)
LOOP(libc_clock_getres, clock_getres(clock, (struct timespec *)&s->ts), libc_negative)
LOOP(libc_gettimeofday, gettimeofday((struct timeval *)&s->tv, NULL), libc_negative)
LOOP(libc_time, time(NULL), libc_negative)
LOOP(libc_getcpu, sched_getcpu(), libc_negative)
LOOP(libc_getrandom, getrandom(buf, len, 0), libc_negative)

/* Each kind's loops, on its vDSO-convention paths and on libc; NULL:
 * bench times no such call. */
static const struct {
	vk_loop call, libc;
} loops[VK_NKINDS] = {
	[VK_KIND_GETTIME] = { loop_clock, libc_clock_gettime },
	[VK_KIND_GETRES] = { loop_clock, libc_clock_getres },
	[VK_KIND_TOD] = { loop_tod, libc_gettimeofday },
	[VK_KIND_TIME] = { loop_time, libc_time },
	[VK_KIND_GETCPU] = { loop_getcpu, libc_getcpu },
	[VK_KIND_GETRANDOM] = { loop_getrandom, libc_getrandom },
};

vk_loop vk_loop_for(enum vk_func f, int libc)
{
	enum vk_kind k = vk_funcs[f].kind;

	return libc ? loops[k].libc : loops[k].call;
}
