// SPDX-License-Identifier: MIT
/*
 * Caught by: timens's userspace. Its clock_gettime stays in userspace
 * (with a made-up time) outside a time namespace and makes the syscall
 * inside one, as a vDSO that cannot read the namespace's page would.
 */
#define IMPL_OWN_CLOCK_GETTIME
#include <stdio.h>
#include "impl.h"

static int offset;

/* Loaded before the call, so the file read is not the call's syscall. */
__attribute__((constructor)) static void in_namespace(void)
{
	FILE *f = fopen("/proc/self/timens_offsets", "re");
	char name[16];
	long long sec, nsec;

	while (f && fscanf(f, "%15s %lld %lld", name, &sec, &nsec) == 3)
		offset |= sec || nsec;
	if (f)
		fclose(f);
}

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	if (offset)
		return impl_sys_clock_gettime(clock, ts);
	ts->sec = 1;
	ts->nsec = 0;
	return 0;
}
