// SPDX-License-Identifier: MIT
/* Not an --impl: an LD_PRELOAD library under which libc's syscall() of
 * getrandom behaves as before the CRNG is ready: GRND_NONBLOCK gets
 * EAGAIN, and a blocking call waits (here, for ever). */
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "preload.h"

long syscall(long n, ...)
{
	long a[6];

	PRELOAD_ARGS(n, a);
	if (n == SYS_getrandom && (a[2] & 1)) {
		errno = EAGAIN;
		return -1;
	}
	while (n == SYS_getrandom)
		pause();
	return preload_real_syscall(n, a);
}
