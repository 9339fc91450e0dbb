/* SPDX-License-Identifier: MIT */
/*
 * arm64's counter read, as the kernel's __arch_get_hw_counter was before
 * and after the seeds' change: A orders the read with an isb before and
 * after it, B (-DONE_ISB) drops the second. inspect's A/B shows the one
 * isb, and no other difference.
 */
	.text
	.globl	__kernel_clock_gettime
	.type	__kernel_clock_gettime, %function
__kernel_clock_gettime:
	isb
	mrs	x2, cntvct_el0
#ifndef ONE_ISB
	isb
#endif
	str	x2, [x1, #8]
	str	xzr, [x1]
	mov	w0, #0
	ret
	.size	__kernel_clock_gettime, . - __kernel_clock_gettime

	.globl	__kernel_clock_getres
	.type	__kernel_clock_getres, %function
__kernel_clock_getres:
	mov	x2, #1
	stp	xzr, x2, [x1]
	mov	w0, #0
	ret
	.size	__kernel_clock_getres, . - __kernel_clock_getres
	.section .note.GNU-stack, "", %progbits
