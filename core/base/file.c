// SPDX-License-Identifier: MIT
/*
 * Opens the files a user names (an image, a library, a kernel, a bench
 * file) only if regular, so that a FIFO or a device cannot hang a run
 * (file.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/file.h"

static const char *kind(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" :
	       S_ISSOCK(m) ? "a socket" : S_ISCHR(m) ? "a character device" :
	       S_ISBLK(m) ? "a block device" : "a file of another kind";
}

/*
 * A look at the name first: opening a device can act (a watchdog's
 * starts it, a tape's rewinds it). Then the opened file's own kind, as
 * the name may have changed in between.
 */
int vk_open_regular(const char *path, char *err, size_t len)
{
	struct stat st;
	int fd = -1, saved;

	if (stat(path, &st))
		goto fail;
	if (S_ISREG(st.st_mode)) {
		fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st))
			goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		snprintf(err, len, "%s: %s, not a regular file", path, kind(st.st_mode));
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		return -1;
	}
	/* Reads of a regular file never wait, but the flag is not promised. */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
fail:
	saved = errno;
	if (fd >= 0)
		close(fd);
	snprintf(err, len, "%s: %s", path, strerror(saved));
	errno = saved;
	return -1;
}

int vk_check_regular(const char *path, char *err, size_t len)
{
	int fd = vk_open_regular(path, err, len);

	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}
