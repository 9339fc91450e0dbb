// SPDX-License-Identifier: MIT
/*
 * Caught by abi as unexpected: a NULL timespec raises SIGBUS. The vDSO may
 * fault on a pointer the syscall refuses, but with SIGSEGV, or SIGBUS for
 * a misaligned address: a bus error raised otherwise means something else
 * went wrong.
 */
#include <signal.h>

#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	if (!ts)
		raise(SIGBUS);
	return impl_sys_clock_gettime(clock, ts);
}
