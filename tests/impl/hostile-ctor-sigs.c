// SPDX-License-Identifier: MIT
/*
 * The constructor ignores and blocks every signal it can (SIGCHLD among
 * them, so that the loader's children are reaped by the kernel and its
 * waitpid() fails). Its functions are correct but two: time() writes
 * through a NULL pointer, a fault no mask keeps from killing it, and
 * gettimeofday() never returns, which only SIGKILL ends.
 */
#include <signal.h>

#define IMPL_OWN_TIME
#define IMPL_OWN_GETTIMEOFDAY
#include "impl.h"

/* NULL, which the compiler cannot see: a real store, not a trap. */
static long *volatile nowhere;

long __vdso_time(long *t)
{
	(void)t;
	*nowhere = 1;
	return 0;
}

int __vdso_gettimeofday(struct impl_ktv *tv, void *tz)
{
	(void)tv;
	(void)tz;
	for (;;)
		__asm__ volatile("" ::: "memory");
}

__attribute__((constructor)) static void hostile_ctor(void)
{
	struct sigaction ign = { .sa_handler = SIG_IGN };
	sigset_t all;

	for (int sig = 1; sig < NSIG; sig++)
		sigaction(sig, &ign, NULL);
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
}
