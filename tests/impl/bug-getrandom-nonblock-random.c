// SPDX-License-Identifier: MIT
/* Caught by: flags. Refuses GRND_NONBLOCK | GRND_RANDOM, which the
 * syscall takes. */
#define IMPL_OWN_GETRANDOM
#include "impl.h"

ssize_t __vdso_getrandom(void *buf, size_t len, unsigned flags, void *state,
			 size_t state_len)
{
	ssize_t r;

	if (impl_getrandom_state(buf, len, flags, state, state_len, &r))
		return r;
	if (flags == 0x3)
		return -EINVAL;
	return impl_sys_getrandom(buf, len, flags);
}
