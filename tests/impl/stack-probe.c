// SPDX-License-Identifier: MIT
/*
 * Caught by: stack, always (tests/cases/verify_stack.sh). Correct, but
 * clock_gettime probes 300 KiB below its frame as -fstack-check's code
 * does (Go's issue 20427), writing back the byte it read: only a guard
 * page below the stack it was given sees it.
 */
#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	volatile unsigned char *probe = (unsigned char *)__builtin_frame_address(0) - 300 * 1024;

	*probe |= 0;
	return impl_sys_clock_gettime(clock, ts);
}
