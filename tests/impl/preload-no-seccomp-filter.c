// SPDX-License-Identifier: MIT
/* Not an --impl: an LD_PRELOAD library that stands in for a kernel built
 * without CONFIG_SECCOMP_FILTER (sparc's cannot have it): prctl() refuses
 * PR_SET_SECCOMP's filter mode with EINVAL, as that kernel does. */
#include <errno.h>
#include <stdarg.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SECCOMP_MODE_FILTER 2

int prctl(int option, ...)
{
	unsigned long a[4];
	va_list ap;

	va_start(ap, option);
	for (int i = 0; i < 4; i++)
		a[i] = va_arg(ap, unsigned long);
	va_end(ap);
	if (option == PR_SET_SECCOMP && a[0] == SECCOMP_MODE_FILTER) {
		errno = EINVAL;
		return -1;
	}
	return (int)syscall(SYS_prctl, option, a[0], a[1], a[2], a[3]);
}
