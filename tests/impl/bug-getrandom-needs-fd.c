// SPDX-License-Identifier: MIT
/* Caught by: no-files. Reads /dev/urandom, so it needs a descriptor the
 * vDSO never takes. */
#define IMPL_GETRANDOM_BYTES
#include <fcntl.h>
#include "impl.h"

static ssize_t impl_getrandom_bytes(void *buf, size_t len, unsigned flags)
{
	ssize_t r;
	int fd;

	fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = impl_sys_getrandom(buf, len, flags);
	close(fd);
	return r;
}
