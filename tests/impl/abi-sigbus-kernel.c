// SPDX-License-Identifier: MIT
/*
 * Faults as MIPS does: a kernel address, or NULL, gets the SIGBUS that
 * the kernel's do_ade sends for an address error (si_code SI_KERNEL, no
 * address). abi allows it for a kernel pointer the syscall refuses with
 * EFAULT, and for nothing else: NULL is no kernel address.
 */
#include <signal.h>

#define IMPL_OWN_CLOCK_GETTIME
#include "impl.h"

/* A process may send itself any si_code (rt_tgsigqueueinfo). */
static void kernel_sigbus(void)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	si.si_signo = SIGBUS;
	si.si_code = SI_KERNEL;
	syscall(SYS_rt_tgsigqueueinfo, getpid(), syscall(SYS_gettid), SIGBUS, &si);
}

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	/* The top half of the address space is the kernel's on x86, arm and MIPS. */
	if (!ts || (intptr_t)ts < 0)
		kernel_sigbus();
	return impl_sys_clock_gettime(clock, ts);
}
