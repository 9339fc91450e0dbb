// SPDX-License-Identifier: MIT
/*
 * Crashes on its third read of an aux clock (ids 16-23), the first two
 * being verify's errno checks of it: the crash comes while verify has
 * the clock enabled, which must be disabled again all the same.
 */
#include <signal.h>

#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	static int reads;

	if (clock >= 16 && clock <= 23 && __atomic_add_fetch(&reads, 1, __ATOMIC_RELAXED) > 2)
		raise(SIGSEGV);
	return impl_sys_clock_gettime(clock, ts);
}
