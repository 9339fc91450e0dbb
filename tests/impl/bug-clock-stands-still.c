// SPDX-License-Identifier: MIT
/* Caught by: ordered. CLOCK_MONOTONIC returns its first reading forever. */
#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	static int64_t first;	/* in ns; 0 until the first reading */
	int64_t ns, none = 0;
	int r = impl_sys_clock_gettime(clock, ts);

	if (r || clock != CLOCK_MONOTONIC)
		return r;
	/* Racing threads agree on whichever reading was stored first. */
	ns = (int64_t)ts->sec * IMPL_NSEC_PER_SEC + ts->nsec;
	__atomic_compare_exchange_n(&first, &none, ns, 0, __ATOMIC_RELAXED,
				    __ATOMIC_RELAXED);
	ns = __atomic_load_n(&first, __ATOMIC_RELAXED);
	ts->sec = ns / IMPL_NSEC_PER_SEC;
	ts->nsec = ns % IMPL_NSEC_PER_SEC;
	return 0;
}
