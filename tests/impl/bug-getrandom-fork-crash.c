// SPDX-License-Identifier: MIT
/* Caught by: fork. A state a forked child finds wiped, read without a
 * check: the child's first draw crashes. */
#define IMPL_OWN_GETRANDOM
#include "impl.h"

#include <signal.h>

ssize_t __vdso_getrandom(void *buf, size_t len, unsigned flags, void *state,
			 size_t state_len)
{
	static pid_t owner;
	ssize_t r;

	if (impl_getrandom_state(buf, len, flags, state, state_len, &r))
		return r;
	if (!owner)
		owner = getpid();
	else if (getpid() != owner)
		raise(SIGSEGV);
	return impl_sys_getrandom(buf, len, flags);
}
