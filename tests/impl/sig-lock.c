// SPDX-License-Identifier: MIT
/*
 * A lock held across the call: clock_gettime takes a spinlock that is
 * not recursive and spins a while in it. Correct on one thread and
 * across threads; called again from a signal handler that interrupted
 * it, it waits for itself for ever. The signal-call rule's watchdog
 * names the deadlock.
 */
#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

#define SPINS 2000	/* most of the call is in the lock */

static int held;

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	int r;

	while (__atomic_exchange_n(&held, 1, __ATOMIC_ACQUIRE))
		;
	r = impl_sys_clock_gettime(clock, ts);
	for (int i = 0; i < SPINS; i++)
		__asm__ volatile("" ::: "memory");
	__atomic_store_n(&held, 0, __ATOMIC_RELEASE);
	return r;
}
