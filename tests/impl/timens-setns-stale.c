// SPDX-License-Identifier: MIT
/*
 * Caught by: timens's setns. MONOTONIC and BOOTTIME with the offsets of
 * the time namespace the process first read them in, as a vDSO whose data
 * page the kernel did not map anew on setns() would read them: right until
 * the process moves to another namespace, off by the offsets from then on.
 */
#define IMPL_OWN_CLOCK_GETTIME
#include <stdio.h>
#include <string.h>
#include "impl.h"

static const char *const names[2] = { "monotonic", "boottime" };
static int64_t first[2];
static int known;

/* The offsets of the namespace this process is in now, in ns. */
static void offsets(int64_t ns[2])
{
	FILE *f = fopen("/proc/self/timens_offsets", "re");
	char name[16];
	long long sec, nsec;

	ns[0] = ns[1] = 0;
	while (f && fscanf(f, "%15s %lld %lld", name, &sec, &nsec) == 3) {
		for (int k = 0; k < 2; k++) {
			if (!strcmp(name, names[k]))
				ns[k] = sec * IMPL_NSEC_PER_SEC + nsec;
		}
	}
	if (f)
		fclose(f);
}

int __vdso_clock_gettime(clockid_t clock, struct impl_kts *ts)
{
	int k = clock == CLOCK_MONOTONIC ? 0 : clock == CLOCK_BOOTTIME ? 1 : -1;
	int64_t now[2], t;
	int r;

	if (k >= 0 && !known) {
		offsets(first);
		known = 1;
	}
	if (k >= 0)
		offsets(now);
	r = impl_sys_clock_gettime(clock, ts);
	if (r || k < 0)
		return r;
	t = (int64_t)ts->sec * IMPL_NSEC_PER_SEC + ts->nsec - now[k] + first[k];
	ts->sec = t / IMPL_NSEC_PER_SEC;
	ts->nsec = t % IMPL_NSEC_PER_SEC;
	return 0;
}
