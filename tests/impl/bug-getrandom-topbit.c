// SPDX-License-Identifier: MIT
/* Caught by: statistics. Every byte has its top bit clear. */
#define IMPL_GETRANDOM_BYTES
#include "impl.h"

static ssize_t impl_getrandom_bytes(void *buf, size_t len, unsigned flags)
{
	unsigned char *p = buf;
	ssize_t r;

	r = impl_sys_getrandom(buf, len, flags);
	for (ssize_t i = 0; i < r; i++)
		p[i] &= 0x7f;
	return r;
}
