// SPDX-License-Identifier: MIT
/* Not an --impl: an LD_PRELOAD library under which every write to
 * /proc/self/timens_offsets is taken (it goes to /dev/null), as a kernel
 * that refused nothing would take it: each of timens's refuses-* fails. */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>

int open(const char *path, int flags, ...)
{
	int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	mode_t mode = 0;
	va_list ap;

	va_start(ap, flags);
	if (flags & O_CREAT)
		mode = va_arg(ap, mode_t);
	va_end(ap);
	if (!strcmp(path, "/proc/self/timens_offsets") && (flags & O_ACCMODE) == O_WRONLY)
		path = "/dev/null";
	return real(path, flags, mode);
}
