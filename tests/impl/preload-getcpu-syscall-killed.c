// SPDX-License-Identifier: MIT
/* Not an --impl: an LD_PRELOAD library under which libc's syscall() of
 * getcpu is killed, so that abi has no syscall outcome to compare with. */
#include <signal.h>
#include <sys/syscall.h>

#include "preload.h"

long syscall(long n, ...)
{
	long a[6];

	PRELOAD_ARGS(n, a);
	if (n == SYS_getcpu)
		raise(SIGKILL);
	return preload_real_syscall(n, a);
}
