// SPDX-License-Identifier: MIT
/* Caught by: flags. GRND_NONBLOCK, which the syscall takes, is refused
 * with -EINVAL: a divergence no kernel's vDSO has, so its reproducer
 * must find the real vDSO agreeing with the syscall. */
#define IMPL_GETRANDOM_BYTES
#include "impl.h"

#ifndef GRND_NONBLOCK
#define GRND_NONBLOCK 0x0001
#endif

static ssize_t impl_getrandom_bytes(void *buf, size_t len, unsigned flags)
{
	if (flags & GRND_NONBLOCK)
		return -EINVAL;
	return impl_sys_getrandom(buf, len, flags);
}
