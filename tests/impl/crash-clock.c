// SPDX-License-Identifier: MIT
/*
 * Crashes on every clock_gettime call, the function every arch's vDSO
 * has: compare must name the case and the side that died, and measure
 * the others.
 */
#include <signal.h>

#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	(void)clock;
	(void)ts;
	raise(SIGSEGV);
	return 0;
}
