// SPDX-License-Identifier: MIT
/* Caught by: fork. A state a forked child finds wiped, read without a
 * check: the child's first draw crashes. */
#define IMPL_GETRANDOM_BYTES
#include "impl.h"

#include <signal.h>

static ssize_t impl_getrandom_bytes(void *buf, size_t len, unsigned flags)
{
	static pid_t owner;

	if (!owner)
		owner = getpid();
	else if (getpid() != owner)
		raise(SIGSEGV);
	return impl_sys_getrandom(buf, len, flags);
}
