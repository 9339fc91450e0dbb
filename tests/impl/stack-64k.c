// SPDX-License-Identifier: MIT
/*
 * Caught by: stack, under --max-stack 16384 (tests/cases/verify_stack.sh).
 * Correct, but clock_gettime uses 64 KiB of stack, which a runtime's
 * small stack would not have.
 */
#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	volatile unsigned char big[64 * 1024];

	for (size_t i = 0; i < sizeof(big); i += 256)
		big[i] = (unsigned char)i;
	big[0] = 1;
	return impl_sys_clock_gettime(clock, ts);
}
