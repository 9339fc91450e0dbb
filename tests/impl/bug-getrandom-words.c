// SPDX-License-Identifier: MIT
/* Caught by: length. Fills whole 8-byte words only, yet says it wrote
 * every byte asked for: the last len % 8 are left as they were. */
#define IMPL_GETRANDOM_BYTES
#include "impl.h"

static ssize_t impl_getrandom_bytes(void *buf, size_t len, unsigned flags)
{
	ssize_t r;

	r = impl_sys_getrandom(buf, len - len % 8, flags);
	return r < 0 ? r : (ssize_t)len;
}
