// SPDX-License-Identifier: MIT
/* Caught by: statistics. Hands out the same 64 KiB of good bytes again
 * and again, from where the last call stopped. */
#define IMPL_GETRANDOM_BYTES
#include "impl.h"

#define POOL 65536

static ssize_t impl_getrandom_bytes(void *buf, size_t len, unsigned flags)
{
	static unsigned char pool[POOL];
	static size_t filled, at;
	unsigned char *p = buf;
	ssize_t r;

	r = impl_sys_getrandom(buf, 0, flags);	/* the flags' errors */
	if (r < 0)
		return r;
	for (; filled < POOL; filled += 256)
		if (impl_sys_getrandom(pool + filled, 256, 0) != 256)
			return -EIO;
	for (size_t i = 0; i < len; i++, at++)
		p[i] = pool[at % POOL];
	return len;
}
