// SPDX-License-Identifier: MIT
/* Caught by: normalized. Once in 100 readings tv_nsec is 1e9 or more. */
#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

/*
 * The same instant spelled sec - 1, nsec + 1e9: an offset applied
 * without the carry, on a path taken once in 100 calls. Tied to the
 * count, not to the first ms of a second, so a short run meets it, and
 * often enough that a starved one (4,352 calls in 0.2 s at load 20)
 * still breaks it more often than --max-fails allows.
 */
int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	static unsigned long calls;
	int r = impl_sys_clock_gettime(clock, ts);

	if (!r && __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED) % 100 == 0) {
		ts->sec--;
		ts->nsec += IMPL_NSEC_PER_SEC;
	}
	return r;
}
