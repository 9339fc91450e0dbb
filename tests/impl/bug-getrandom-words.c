// SPDX-License-Identifier: MIT
/* Caught by: length. Fills whole 8-byte words only, yet says it wrote
 * every byte asked for: the last len % 8 are left as they were. */
#define IMPL_OWN_GETRANDOM
#include "impl.h"

ssize_t __vdso_getrandom(void *buf, size_t len, unsigned flags, void *state,
			 size_t state_len)
{
	ssize_t r;

	if (impl_getrandom_state(buf, len, flags, state, state_len, &r))
		return r;
	r = impl_sys_getrandom(buf, len - len % 8, flags);
	return r < 0 ? r : (ssize_t)len;
}
