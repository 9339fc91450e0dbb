// SPDX-License-Identifier: MIT
/* Caught by: threads. Monotonic clocks run 50 us late in all but the first thread. */
#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

static int monotonic(clockid_t clock)
{
	return clock == CLOCK_MONOTONIC || clock == CLOCK_MONOTONIC_RAW ||
	       clock == CLOCK_MONOTONIC_COARSE || clock == CLOCK_BOOTTIME ||
	       clock == CLOCK_BOOTTIME_ALARM;
}

/* Whether this is the first thread to call: it keeps the right time. */
static int first_thread(void)
{
	static long first;	/* its tid; 0 until the first call */
	long tid = impl_syscall(SYS_gettid, 0, 0, 0), none = 0;

	__atomic_compare_exchange_n(&first, &none, tid, 0, __ATOMIC_RELAXED,
				    __ATOMIC_RELAXED);
	return __atomic_load_n(&first, __ATOMIC_RELAXED) == tid;
}

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	int r = impl_sys_clock_gettime(clock, ts);

	if (!r && monotonic(clock) && !first_thread())
		impl_ts_add_ns(ts, -50000);
	return r;
}
