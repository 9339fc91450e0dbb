// SPDX-License-Identifier: MIT
/* Caught by: abi's NULL-buffer cases with GRND_NONBLOCK (LTP getrandom01).
 * A NULL buffer with GRND_NONBLOCK says -EAGAIN before the buffer is
 * looked at, where the syscall says -EFAULT (or 0 for no bytes); with a
 * valid buffer, or flags 0, it is right. */
#define IMPL_GETRANDOM_BYTES
#include "impl.h"

#ifndef GRND_NONBLOCK
#define GRND_NONBLOCK 0x0001
#endif

static ssize_t impl_getrandom_bytes(void *buf, size_t len, unsigned flags)
{
	if (!buf && (flags & GRND_NONBLOCK))
		return -EAGAIN;
	return impl_sys_getrandom(buf, len, flags);
}
