// SPDX-License-Identifier: MIT
/*
 * Caught by: stress's timezone fault, inside vdsokit vm. A gettimeofday
 * whose copy of the kernel's timezone is never updated, as a vDSO whose
 * data page missed settimeofday's: right until the first timezone is set,
 * and verify's timezone rule, which sets none, passes it.
 */
#define IMPL_OWN_GETTIMEOFDAY
#include "impl.h"

static int tz[2];		/* minuteswest, dsttime at load */

__attribute__((constructor)) static void load(void)
{
	struct impl_ktv tv;

	impl_sys_gettimeofday(&tv, tz);
}

int __vdso_gettimeofday(struct impl_ktv *tv, void *tzp)
{
	int r = impl_sys_gettimeofday(tv, NULL);

	if (!r && tzp)
		memcpy(tzp, tz, sizeof(tz));
	return r;
}
