// SPDX-License-Identifier: MIT
/* Caught by: statistics, which draws with GRND_INSECURE too: only there
 * is every byte's top bit clear, as a path that took GRND_INSECURE for a
 * weaker source of its own would give. */
#define IMPL_GETRANDOM_BYTES
#include "impl.h"

#ifndef GRND_INSECURE
#define GRND_INSECURE 0x0004
#endif

static ssize_t impl_getrandom_bytes(void *buf, size_t len, unsigned flags)
{
	unsigned char *p = buf;
	ssize_t r;

	r = impl_sys_getrandom(buf, len, flags);
	for (ssize_t i = 0; flags & GRND_INSECURE && i < r; i++)
		p[i] &= 0x7f;
	return r;
}
