// SPDX-License-Identifier: MIT
/* Not an --impl: an LD_PRELOAD library that stands in for a kernel with
 * aux clocks, all disabled, to a process that may not enable them: the
 * sysfs directory is there, each aux_clock_enable reads 0 and refuses
 * to be opened for writing (EACCES), as for a user who is not root. */
#include <errno.h>
#include <sys/mman.h>

#include "preload-aux.h"

int open(const char *path, int flags, ...)
{
	mode_t mode;
	int fd;

	PRELOAD_OPEN_MODE(flags, mode);
	if (strncmp(path, AUX_DIR "/", sizeof(AUX_DIR)))
		return preload_real_open(path, flags, mode);
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
