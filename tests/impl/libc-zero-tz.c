// SPDX-License-Identifier: MIT
/*
 * Not an --impl: an LD_PRELOAD stand-in for static glibc 2.36 on x86,
 * whose gettimeofday zeroes one byte of a non-NULL tz before the syscall,
 * so that tz is written even when the syscall fails with EFAULT. abi
 * must allow that (libc-tz-unspecified). With VK_TZ_PAST set it also
 * writes the byte after tz, which no rule allows.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
	if (tz) {
		memset(tz, 0, 1);
		if (getenv("VK_TZ_PAST"))
			((volatile char *)tz)[sizeof(struct timezone)] = 0;
	}
	return syscall(SYS_gettimeofday, tv, tz);
}
