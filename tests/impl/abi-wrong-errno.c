// SPDX-License-Identifier: MIT
/* Caught by abi as unexpected: gettimeofday reports a bad pointer as EINVAL, not EFAULT. */
#define IMPL_OWN_GETTIMEOFDAY
#include "impl.h"

int __vdso_gettimeofday(struct impl_ktv *tv, void *tz)
{
	int r = impl_sys_gettimeofday(tv, tz);

	return r == -EFAULT ? -EINVAL : r;
}
