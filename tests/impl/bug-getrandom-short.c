// SPDX-License-Identifier: MIT
/* Caught by: length. Asked for len > 1 bytes, it gives len - 1. */
#define IMPL_OWN_GETRANDOM
#include "impl.h"

ssize_t __vdso_getrandom(void *buf, size_t len, unsigned flags, void *state,
			 size_t state_len)
{
	ssize_t r;

	if (impl_getrandom_state(buf, len, flags, state, state_len, &r))
		return r;
	return impl_sys_getrandom(buf, len > 1 ? len - 1 : len, flags);
}
