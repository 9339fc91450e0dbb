// SPDX-License-Identifier: MIT
/*
 * Caught by: stack, under --max-stack 1024 (tests/cases/verify_stack.sh).
 * Correct, but clock_gettime reads a byte 1 KiB below its frame: within
 * the page of the frame that calls it, which no fault sees unless the
 * calls start just above a page boundary.
 */
#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	volatile unsigned char *probe = (unsigned char *)__builtin_frame_address(0) - 1024;

	(void)*probe;
	return impl_sys_clock_gettime(clock, ts);
}
