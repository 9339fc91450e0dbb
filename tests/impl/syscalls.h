/* SPDX-License-Identifier: MIT */
/*
 * Not a bug: clock_gettime as SYSCALLS raw syscalls in a row, for make
 * bench-quality's planted slowdowns. A slowdown planted by count, not by a
 * spin calibrated at load: K + 1 syscalls against K cost (K + 1) / K as
 * much on any machine, in any state, and two runs of the plant are the
 * same plant.
 */
#ifndef SYSCALLS
#error "define SYSCALLS, the syscalls per call"
#endif

#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	int r = 0;

	for (int i = 0; i < SYSCALLS; i++)
		r = impl_sys_clock_gettime(clock, ts);
	return r;
}
