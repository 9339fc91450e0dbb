// SPDX-License-Identifier: MIT
/*
 * No unwind information: clock_gettime is assembly without .cfi
 * directives, so the library has no FDE for it, and it moves the stack
 * pointer, so an unwinder cannot guess where its return address is. It
 * spins a while, then calls the correct C function. A signal that lands
 * in it, or in what it calls, cannot be unwound to its caller. No kernel
 * promises unwind information everywhere (arm64's vDSO has none), so the
 * signal-unwind rule does not fail it: it is a SKIP that names it, "no
 * unwind information covers __vdso_clock_gettime+0x..". x86_64 and i386
 * only; elsewhere the library is correct.
 */
#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

__attribute__((used, visibility("hidden"))) int impl_gettime_c(clockid_t clock,
							       struct impl_kts *ts);

int impl_gettime_c(clockid_t clock, struct impl_kts *ts)
{
	return impl_sys_clock_gettime(clock, ts);
}

#if defined(__x86_64__) && !defined(__ILP32__)
__asm__(".text\n"
	".globl __vdso_clock_gettime\n"
	".type __vdso_clock_gettime, @function\n"
	"__vdso_clock_gettime:\n"
	"	sub $24, %rsp\n"	/* keeps the call 16-byte aligned */
	"	mov $400, %ecx\n"
	"1:	dec %ecx\n"
	"	jnz 1b\n"
	"	call impl_gettime_c\n"
	"	add $24, %rsp\n"
	"	ret\n"
	".size __vdso_clock_gettime, . - __vdso_clock_gettime\n");
#elif defined(__i386__)
__asm__(".text\n"
	".globl __vdso_clock_gettime\n"
	".type __vdso_clock_gettime, @function\n"
	"__vdso_clock_gettime:\n"
	"	sub $28, %esp\n"
	"	mov 32(%esp), %eax\n"	/* clock */
	"	mov 36(%esp), %edx\n"	/* ts */
	"	mov %eax, (%esp)\n"
	"	mov %edx, 4(%esp)\n"
	"	mov $400, %ecx\n"
	"1:	dec %ecx\n"
	"	jnz 1b\n"
	"	call impl_gettime_c\n"
	"	add $28, %esp\n"
	"	ret\n"
	".size __vdso_clock_gettime, . - __vdso_clock_gettime\n");
#else
int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	return impl_gettime_c(clock, ts);
}
#endif
