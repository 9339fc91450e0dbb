// SPDX-License-Identifier: MIT
/* Caught by: errno, and unconfirmed. Ids 12 and up succeed, but only
 * after this process's 1000th call: a bug of the run's state, which a
 * plain call in a fresh process (its reproducer) does not show. */
#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	static unsigned long calls;

	/* Past CLOCK_TAI (11); negative ids are CPU clocks, which are valid. */
	if (++calls > 1000 && clock > CLOCK_TAI) {
		ts->sec = ts->nsec = 0;
		return 0;
	}
	return impl_sys_clock_gettime(clock, ts);
}
