// SPDX-License-Identifier: MIT
/* Not an --impl: an LD_PRELOAD library under which, in any thread but a
 * process's first, the clock_gettime syscall of MONOTONIC and BOOTTIME
 * reads the parent's time namespace's time (the namespace's offsets, as
 * /proc/self/timens_offsets shows them, taken off): timens's exec-thread
 * and vfork-exec-thread rules must fail, and exec and vfork-exec pass. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "preload.h"

/* The offset of clock id in this namespace, in ns. */
static int64_t offset_of(long id)
{
	const char *want = id == CLOCK_MONOTONIC ? "monotonic" : "boottime";
	FILE *f = fopen("/proc/self/timens_offsets", "re");
	long long sec, nsec, off = 0;
	char name[16];

	while (f && fscanf(f, "%15s %lld %lld", name, &sec, &nsec) == 3)
		if (!strcmp(name, want))
			off = sec * 1000000000LL + nsec;
	if (f)
		fclose(f);
	return off;
}

static void take_off(int64_t *sec, int64_t *nsec, int64_t off)
{
	int64_t ns = *sec * 1000000000LL + *nsec - off;

	*sec = ns / 1000000000LL;
	*nsec = ns % 1000000000LL;
}

/* Whether this is the process's first thread (gettid() is glibc 2.30's). */
static int first_thread(void)
{
	static const long none[6];

	return preload_real_syscall(SYS_gettid, none) == getpid();
}

long syscall(long n, ...)
{
	long a[6], ret;

	PRELOAD_ARGS(n, a);
	ret = preload_real_syscall(n, a);
	if (ret || first_thread() || (a[0] != CLOCK_MONOTONIC && a[0] != CLOCK_BOOTTIME))
		return ret;
#ifdef SYS_clock_gettime64
	if (n == SYS_clock_gettime64) {
		int64_t *ts = (int64_t *)a[1];

		take_off(&ts[0], &ts[1], offset_of(a[0]));
	}
#endif
	if (n == SYS_clock_gettime) {
		long *ts = (long *)a[1];
		int64_t sec = ts[0], nsec = ts[1];

		take_off(&sec, &nsec, offset_of(a[0]));
		ts[0] = (long)sec;
		ts[1] = (long)nsec;
	}
	return ret;
}
