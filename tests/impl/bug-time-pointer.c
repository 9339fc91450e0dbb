// SPDX-License-Identifier: MIT
/* Caught by: time-pointer. time(&t) stores one second more in t than it returns. */
#define IMPL_OWN_TIME
#include "impl.h"

long __vdso_time(long *t)
{
	long now = impl_sys_time(NULL);

	if (t && !impl_is_err(now))
		*t = now + 1;
	return now;
}
