// SPDX-License-Identifier: MIT
/* Caught by: statistics. Every byte has its top bit clear. */
#define IMPL_OWN_GETRANDOM
#include "impl.h"

ssize_t __vdso_getrandom(void *buf, size_t len, unsigned flags, void *state,
			 size_t state_len)
{
	unsigned char *p = buf;
	ssize_t r;

	if (impl_getrandom_state(buf, len, flags, state, state_len, &r))
		return r;
	r = impl_sys_getrandom(buf, len, flags);
	for (ssize_t i = 0; i < r; i++)
		p[i] &= 0x7f;
	return r;
}
