// SPDX-License-Identifier: MIT
/*
 * Not an --impl: an LD_PRELOAD stand-in for a libc whose gettimeofday
 * stores through tv unconditionally, as static glibc 2.36 does on armhf,
 * s390x and riscv64 (glibc declares tv __nonnull). abi must allow its
 * fault on a NULL tv (libc-nonnull) and verify must not pass libc one.
 * With VK_DEREF_TZ set it stores through tz as well, which libc may not
 * do on a NULL tz: abi must call that fault unexpected.
 */
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
	struct timeval now;
	struct timezone zone;

	if (syscall(SYS_gettimeofday, &now, &zone))
		return -1;
	*(volatile struct timeval *)tv = now;
	if (tz || getenv("VK_DEREF_TZ"))
		*(volatile struct timezone *)tz = zone;
	return 0;
}
