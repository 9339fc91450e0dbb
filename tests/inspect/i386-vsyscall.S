/* SPDX-License-Identifier: MIT */
/*
 * i386's __kernel_vsyscall with hand-written CFI, as vdso32's is: the one
 * FDE an i386 compat vDSO promises beside the sigreturns'. -DNO_CFI
 * plants its absence.
 */
	.text
	.globl	__kernel_vsyscall
	.type	__kernel_vsyscall, @function
__kernel_vsyscall:
#ifndef NO_CFI
	.cfi_startproc
#endif
	int	$0x80
	ret
#ifndef NO_CFI
	.cfi_endproc
#endif
	.size	__kernel_vsyscall, . - __kernel_vsyscall
	.section .note.GNU-stack, "", @progbits
