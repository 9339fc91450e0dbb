// SPDX-License-Identifier: MIT
/* Caught by: length. Writes one random byte past the end of the buffer. */
#define IMPL_OWN_GETRANDOM
#include "impl.h"

ssize_t __vdso_getrandom(void *buf, size_t len, unsigned flags, void *state,
			 size_t state_len)
{
	ssize_t r;

	if (impl_getrandom_state(buf, len, flags, state, state_len, &r))
		return r;
	r = impl_sys_getrandom(buf, len + 1, flags);
	return r < 0 ? r : r - 1;
}
