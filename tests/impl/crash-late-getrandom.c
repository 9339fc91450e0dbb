// SPDX-License-Identifier: MIT
/*
 * Caught by: length, and survives. Gives one byte short, and crashes on
 * GRND_NONBLOCK, which the flags rule asks for after the length rule:
 * length's failure must outlive the crash.
 */
#include <stdlib.h>
#include <sys/random.h>

#define IMPL_GETRANDOM_BYTES
#include "impl.h"

static ssize_t impl_getrandom_bytes(void *buf, size_t len, unsigned flags)
{
	if (flags & GRND_NONBLOCK)
		abort();
	return impl_sys_getrandom(buf, len > 1 ? len - 1 : len, flags);
}
