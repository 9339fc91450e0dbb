// SPDX-License-Identifier: MIT
/* Not an --impl: an LD_PRELOAD library under which libc's syscall() of
 * getrandom behaves as before the CRNG is ready: GRND_NONBLOCK gets
 * EAGAIN, and a blocking call waits (here, for ever). */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <unistd.h>

long syscall(long n, ...)
{
	long (*real)(long, ...) = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	long a[6];
	va_list ap;

	va_start(ap, n);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (n == SYS_getrandom && (a[2] & 1)) {
		errno = EAGAIN;
		return -1;
	}
	while (n == SYS_getrandom)
		pause();
	return real(n, a[0], a[1], a[2], a[3], a[4], a[5]);
}
