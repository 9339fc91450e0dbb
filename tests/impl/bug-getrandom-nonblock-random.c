// SPDX-License-Identifier: MIT
/* Caught by: flags. Refuses GRND_NONBLOCK | GRND_RANDOM, which the
 * syscall takes. */
#define IMPL_GETRANDOM_BYTES
#include "impl.h"

static ssize_t impl_getrandom_bytes(void *buf, size_t len, unsigned flags)
{
	if (flags == 0x3)
		return -EINVAL;
	return impl_sys_getrandom(buf, len, flags);
}
