// SPDX-License-Identifier: MIT
/* Not an --impl: an LD_PRELOAD library that stands in for a kernel with
 * aux clocks, all disabled, to a process that may not enable them: the
 * sysfs directory is there, each aux_clock_enable reads 0 and refuses
 * to be opened for writing (EACCES), as for a user who is not root. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define AUX_DIR "/sys/kernel/time/aux_clocks"

int access(const char *path, int mode)
{
	int (*real)(const char *, int) = (int (*)(const char *, int))dlsym(RTLD_NEXT, "access");

	return strcmp(path, AUX_DIR) ? real(path, mode) : 0;
}

int open(const char *path, int flags, ...)
{
	int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	mode_t mode = 0;
	va_list ap;
	int fd;

	va_start(ap, flags);
	if (flags & O_CREAT)
		mode = va_arg(ap, mode_t);
	va_end(ap);
	if (strncmp(path, AUX_DIR "/", sizeof(AUX_DIR)))
		return real(path, flags, mode);
	if ((flags & O_ACCMODE) != O_RDONLY) {
		errno = EACCES;
		return -1;
	}
	fd = memfd_create("aux_clock_enable", MFD_CLOEXEC);
	if (fd >= 0 && (write(fd, "0\n", 2) != 2 || lseek(fd, 0, SEEK_SET))) {
		close(fd);
		return -1;
	}
	return fd;
}
