// SPDX-License-Identifier: MIT
/*
 * Caught by: ordered or monotonic. CLOCK_MONOTONIC steps back 1 ms once
 * in 10000 calls: a step of 1 us was none where a syscall takes more.
 */
#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	static unsigned long calls;
	int r = impl_sys_clock_gettime(clock, ts);

	if (r || clock != CLOCK_MONOTONIC)
		return r;
	/* Counted atomically, as verify reads from several threads. */
	if (__atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED) % 10000 == 0)
		impl_ts_add_ns(ts, -1000000);
	return 0;
}
