/* SPDX-License-Identifier: MIT */
/*
 * Every vDSO function running HOSTILE_BODY instead of answering: a planted
 * library that exits, crashes or hangs whichever function a command calls.
 * Each hostile-*.c defines HOSTILE_BODY and includes this file.
 */
#ifndef VK_HOSTILE_H
#define VK_HOSTILE_H

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/types.h>
#include <time.h>

/* The functions never look at their arguments. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define HOSTILE_FN(ret, name, ...)                                              \
	ret name(__VA_ARGS__);                                                  \
	ret name(__VA_ARGS__)                                                   \
	{                                                                       \
		HOSTILE_BODY;                                                   \
		return 0;                                                       \
	}

HOSTILE_FN(int, __vdso_clock_gettime, clockid_t c, void *ts)
HOSTILE_FN(int, __vdso_clock_getres, clockid_t c, void *ts)
HOSTILE_FN(int, __vdso_gettimeofday, void *tv, void *tz)
HOSTILE_FN(long, __vdso_time, long *t)
HOSTILE_FN(int, __vdso_getcpu, unsigned *cpu, unsigned *node, void *cache)
HOSTILE_FN(ssize_t, __vdso_getrandom, void *buf, size_t len, unsigned flags, void *state,
	   size_t state_len)
HOSTILE_FN(int, __vdso_clock_gettime64, clockid_t c, void *ts)
HOSTILE_FN(int, __vdso_clock_getres_time64, clockid_t c, void *ts)

#endif /* VK_HOSTILE_H */
