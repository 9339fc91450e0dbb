// SPDX-License-Identifier: MIT
/*
 * Not a bug, a design bench --threads tells: clock_gettime behind one
 * global mutex, which it holds while it reads the clock and spins a
 * while, as a library that serializes its callers would. Correct on
 * one thread; under N threads at once its calls per second stay those
 * of one (scaling near 1), where passthrough.so's grow with N.
 */
#include <pthread.h>

#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

#define SPINS 2000	/* some microseconds in the lock: it dominates the call */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	int r;

	pthread_mutex_lock(&lock);
	r = impl_sys_clock_gettime(clock, ts);
	for (int i = 0; i < SPINS; i++)
		__asm__ volatile("" ::: "memory");
	pthread_mutex_unlock(&lock);
	return r;
}
