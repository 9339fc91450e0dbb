// SPDX-License-Identifier: MIT
/* Caught by: no-files. Reads /dev/urandom, so it needs a descriptor the
 * vDSO never takes. */
#define IMPL_OWN_GETRANDOM
#include <fcntl.h>
#include "impl.h"

ssize_t __vdso_getrandom(void *buf, size_t len, unsigned flags, void *state,
			 size_t state_len)
{
	ssize_t r;
	int fd;

	if (impl_getrandom_state(buf, len, flags, state, state_len, &r))
		return r;
	fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = impl_sys_getrandom(buf, len, flags);
	close(fd);
	return r;
}
