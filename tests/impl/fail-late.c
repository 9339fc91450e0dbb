// SPDX-License-Identifier: MIT
/* Caught by: bench. clock_gettime fails with -EAGAIN once in 4096
 * calls: a few failures among many still fail the row. */
#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	static unsigned long n;

	if (++n % 4096 == 0)
		return -EAGAIN;
	return impl_sys_clock_gettime(clock, ts);
}
