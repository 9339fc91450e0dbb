// SPDX-License-Identifier: MIT
/* Caught by: errno. An invalid clock id gives -EFAULT instead of -EINVAL. */
#define IMPL_OWN_CLOCK_GETTIME
#define IMPL_OWN_CLOCK_GETRES
#include "impl.h"

static int wrong_errno(int r)
{
	return r == -EINVAL ? -EFAULT : r;
}

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	return wrong_errno(impl_sys_clock_gettime(clock, ts));
}

int __vdso_clock_getres(clockid_t clock, struct impl_kts *res)
{
	return wrong_errno(impl_sys_clock_getres(clock, res));
}
