// SPDX-License-Identifier: MIT
/*
 * Caught by: aux-ordered (and aux-disable). An aux clock (ids 16-23) read
 * as MONOTONIC_RAW plus the offset it had at its first reading, as a
 * vDSO would that copied its data once: steps, slews and disabling are
 * never seen. Only a kernel with aux clocks, as root, shows it.
 */
#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

static int64_t ns_of(const struct impl_kts *ts)
{
	return (int64_t)ts->sec * IMPL_NSEC_PER_SEC + ts->nsec;
}

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	static int64_t offset, known;	/* aux - raw, once known is 1 */
	struct impl_kts raw, before;
	int64_t ns;
	int r;

	if (clock < 16 || clock > 23 || !__atomic_load_n(&known, __ATOMIC_ACQUIRE)) {
		impl_sys_clock_gettime(CLOCK_MONOTONIC_RAW, &before);
		r = impl_sys_clock_gettime(clock, ts);
		if (r || clock < 16 || clock > 23 || impl_sys_clock_gettime(CLOCK_MONOTONIC_RAW, &raw))
			return r;
		/* Against the raw reads' midpoint: right until the clock moves. */
		ns = ns_of(&before) + (ns_of(&raw) - ns_of(&before)) / 2;
		__atomic_store_n(&offset, ns_of(ts) - ns, __ATOMIC_RELAXED);
		__atomic_store_n(&known, 1, __ATOMIC_RELEASE);
		return 0;
	}
	impl_sys_clock_gettime(CLOCK_MONOTONIC_RAW, &raw);
	ns = ns_of(&raw) + __atomic_load_n(&offset, __ATOMIC_RELAXED);
	ts->sec = ns / IMPL_NSEC_PER_SEC;
	ts->nsec = ns % IMPL_NSEC_PER_SEC;
	return 0;
}
