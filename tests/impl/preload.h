/* SPDX-License-Identifier: MIT */
/*
 * For the LD_PRELOAD libraries (preload-*.c) that stand in for libc's
 * syscall() or open(): their arguments, and the real ones to pass them
 * on to.
 */
#ifndef VK_PRELOAD_H
#define VK_PRELOAD_H

#include <dlfcn.h>
#include <fcntl.h>
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

/* open()'s mode, in an open(path, flags, ...) of a stand-in: there only
 * with O_CREAT. */
#define PRELOAD_OPEN_MODE(flags, mode)                                   \
	do {                                                             \
		va_list ap;                                              \
		va_start(ap, flags);                                     \
		(mode) = (flags) & O_CREAT ? va_arg(ap, mode_t) : 0;     \
		va_end(ap);                                              \
	} while (0)

static inline int preload_real_open(const char *path, int flags, mode_t mode)
{
	int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");

	return real(path, flags, mode);
}

#endif /* VK_PRELOAD_H */
