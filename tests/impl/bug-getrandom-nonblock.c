// SPDX-License-Identifier: MIT
/* Caught by: flags. GRND_NONBLOCK, which the syscall takes, is refused
 * with -EINVAL: a divergence no kernel's vDSO has, so its reproducer
 * must find the real vDSO agreeing with the syscall. */
#define IMPL_OWN_GETRANDOM
#include "impl.h"

#ifndef GRND_NONBLOCK
#define GRND_NONBLOCK 0x0001
#endif

ssize_t __vdso_getrandom(void *buf, size_t len, unsigned flags, void *state,
			 size_t state_len)
{
	ssize_t r;

	if (impl_getrandom_state(buf, len, flags, state, state_len, &r))
		return r;
	if (flags & GRND_NONBLOCK)
		return -EINVAL;
	return impl_sys_getrandom(buf, len, flags);
}
