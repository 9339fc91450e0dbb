// SPDX-License-Identifier: MIT
/*
 * Wrong unwind information: clock_gettime is assembly whose FDE (.cfi
 * directives) does not tell that it pushes three words, so an unwinder
 * that interrupts it takes the 0 on top of the stack for its return
 * address and stops short of the caller. It spins a while, then calls the
 * correct C function. The signal-unwind rule fails it: "unwinding from
 * __vdso_clock_gettime+0x.. reached 0, which is no code". x86_64 and i386
 * only; elsewhere the library is correct.
 */
#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

#if defined(__i386__)
#define IMPL_ARGS_IN_REGS __attribute__((regparm(2)))
#else
#define IMPL_ARGS_IN_REGS
#endif

__attribute__((used, visibility("hidden"))) IMPL_ARGS_IN_REGS int
impl_gettime_c(clockid_t clock, struct impl_kts *ts);

IMPL_ARGS_IN_REGS int impl_gettime_c(clockid_t clock, struct impl_kts *ts)
{
	return impl_sys_clock_gettime(clock, ts);
}

#if defined(__x86_64__) && !defined(__ILP32__)
/* The pushes keep the call 16-byte aligned; the arguments stay in rdi
 * and rsi. */
__asm__(".text\n"
	".globl __vdso_clock_gettime\n"
	".type __vdso_clock_gettime, @function\n"
	"__vdso_clock_gettime:\n"
	"	.cfi_startproc\n"
	"	push $0\n"
	"	push $0\n"
	"	push $0\n"
	"	mov $400, %ecx\n"
	"1:	dec %ecx\n"
	"	jnz 1b\n"
	"	call impl_gettime_c\n"
	"	add $24, %rsp\n"
	"	ret\n"
	"	.cfi_endproc\n"
	".size __vdso_clock_gettime, . - __vdso_clock_gettime\n");
#elif defined(__i386__)
/* The arguments go in eax and edx (regparm), so that the word on top of
 * the stack stays 0 through the call too: an unwinder that took a small
 * number for a return address would read the code there. */
__asm__(".text\n"
	".globl __vdso_clock_gettime\n"
	".type __vdso_clock_gettime, @function\n"
	"__vdso_clock_gettime:\n"
	"	.cfi_startproc\n"
	"	push $0\n"
	"	push $0\n"
	"	push $0\n"
	"	mov 16(%esp), %eax\n"	/* clock */
	"	mov 20(%esp), %edx\n"	/* ts */
	"	mov $400, %ecx\n"
	"1:	dec %ecx\n"
	"	jnz 1b\n"
	"	call impl_gettime_c\n"
	"	add $12, %esp\n"
	"	ret\n"
	"	.cfi_endproc\n"
	".size __vdso_clock_gettime, . - __vdso_clock_gettime\n");
#else
int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	return impl_gettime_c(clock, ts);
}
#endif
