// SPDX-License-Identifier: MIT
/* Caught by: length. Writes one random byte past the end of the buffer. */
#define IMPL_GETRANDOM_BYTES
#include "impl.h"

static ssize_t impl_getrandom_bytes(void *buf, size_t len, unsigned flags)
{
	ssize_t r;

	r = impl_sys_getrandom(buf, len + 1, flags);
	return r < 0 ? r : r - 1;
}
