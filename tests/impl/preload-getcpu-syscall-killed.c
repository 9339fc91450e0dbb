// SPDX-License-Identifier: MIT
/* Not an --impl: an LD_PRELOAD library under which libc's syscall() of
 * getcpu is killed, so that abi has no syscall outcome to compare with. */
#include <dlfcn.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/syscall.h>

long syscall(long n, ...)
{
	long (*real)(long, ...) = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	long a[6];
	va_list ap;

	va_start(ap, n);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (n == SYS_getcpu)
		raise(SIGKILL);
	return real(n, a[0], a[1], a[2], a[3], a[4], a[5]);
}
