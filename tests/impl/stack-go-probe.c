// SPDX-License-Identifier: MIT
/*
 * Caught by: stack, under --max-stack 4096 (tests/cases/verify_stack.sh).
 * Correct, but clock_gettime probes as -fstack-check's code did in Go's
 * issue 20427: "sub $0x1038,%rsp; orq $0x0,(%rsp); add $0x1038,%rsp",
 * 4152 bytes below its frame. It writes back the byte it read, so the
 * paint alone never sees it. Elsewhere than x86_64, the same in C.
 */
#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
#if defined(__x86_64__)
	__asm__ volatile("sub $0x1038, %%rsp\n\torq $0x0, (%%rsp)\n\tadd $0x1038, %%rsp"
			 ::: "memory", "cc");
#else
	volatile unsigned char *probe = (unsigned char *)__builtin_frame_address(0) - 0x1038;

	*probe |= 0;
#endif
	return impl_sys_clock_gettime(clock, ts);
}
