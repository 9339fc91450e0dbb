// SPDX-License-Identifier: MIT
/* Caught by abi as unexpected: getrandom changes the byte after its output. */
#define IMPL_OWN_GETRANDOM
#include "impl.h"

ssize_t __vdso_getrandom(void *buf, size_t len, unsigned flags, void *state,
			 size_t state_len)
{
	unsigned char *out = buf;
	ssize_t r;

	if (impl_getrandom_state(buf, len, flags, state, state_len, &r))
		return r;
	r = impl_sys_getrandom(buf, len, flags);
	if (r > 0 && r < 4096)
		out[r] = ~out[r];
	return r;
}
