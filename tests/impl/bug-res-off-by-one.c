// SPDX-License-Identifier: MIT
/* Caught by: resolution. Every clock's resolution is 1 ns too large. */
#define IMPL_OWN_CLOCK_GETRES
#include "impl.h"

int __vdso_clock_getres(clockid_t clock, struct impl_kts *res)
{
	int r = impl_sys_clock_getres(clock, res);

	if (!r && res)
		res->nsec++;
	return r;
}
