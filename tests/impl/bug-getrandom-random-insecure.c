// SPDX-License-Identifier: MIT
/* Caught by: flags, in two cases (tests/cases/verify_cases.sh). As the
 * x86_64 vDSO of Linux 6.11 and later does, GRND_RANDOM|GRND_INSECURE,
 * which the syscall refuses with EINVAL, gives bytes: with and without
 * GRND_NONBLOCK, flags 0x6 and 0x7, each of which must be named. */
#define IMPL_GETRANDOM_BYTES
#include "impl.h"

#ifndef GRND_RANDOM
#define GRND_RANDOM 0x0002
#endif
#ifndef GRND_INSECURE
#define GRND_INSECURE 0x0004
#endif
#define KNOWN 0x0007u

static ssize_t impl_getrandom_bytes(void *buf, size_t len, unsigned flags)
{
	unsigned both = GRND_RANDOM | GRND_INSECURE;

	if (!(flags & ~KNOWN) && (flags & both) == both)
		return impl_sys_getrandom(buf, len, flags & ~GRND_RANDOM);
	return impl_sys_getrandom(buf, len, flags);
}
