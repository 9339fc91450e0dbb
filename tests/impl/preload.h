/* SPDX-License-Identifier: MIT */
/*
 * For the LD_PRELOAD libraries (preload-*.c) that stand in for libc's
 * syscall(): its six arguments, and the real one to pass them on to.
 */
#ifndef VK_PRELOAD_H
#define VK_PRELOAD_H

#include <dlfcn.h>
#include <stdarg.h>

#define PRELOAD_ARGS(n, a)                                       \
	do {                                                     \
		va_list ap;                                      \
		va_start(ap, n);                                 \
		for (int i = 0; i < 6; i++)                      \
			(a)[i] = va_arg(ap, long);               \
		va_end(ap);                                      \
	} while (0)

static inline long preload_real_syscall(long n, const long *a)
{
	long (*real)(long, ...) = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");

	return real(n, a[0], a[1], a[2], a[3], a[4], a[5]);
}

#endif /* VK_PRELOAD_H */
