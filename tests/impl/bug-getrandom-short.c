// SPDX-License-Identifier: MIT
/* Caught by: length. Asked for len > 1 bytes, it gives len - 1. */
#define IMPL_GETRANDOM_BYTES
#include "impl.h"

static ssize_t impl_getrandom_bytes(void *buf, size_t len, unsigned flags)
{
	return impl_sys_getrandom(buf, len > 1 ? len - 1 : len, flags);
}
