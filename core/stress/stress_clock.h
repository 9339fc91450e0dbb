/* SPDX-License-Identifier: MIT */
/*
 * The kernel's clock settings stress's faults change and put back: each
 * set by one call, which says in err what the kernel refused.
 */
#ifndef VK_STRESS_CLOCK_H
#define VK_STRESS_CLOCK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/timex.h>
#include <time.h>

#define VK_NSEC 1000000000LL

#if defined(SYS_gettimeofday) && defined(SYS_settimeofday)
#define VK_HAVE_TZ_SYSCALLS 1
#else
#define VK_HAVE_TZ_SYSCALLS 0
#endif

int64_t vk_stress_now_ns(clockid_t c);
/* adjtimex(&tx); on failure err says "adjtimex(WHAT): why". */
int vk_stress_adjust(struct timex tx, char *err, size_t len, const char *what, ...)
	__attribute__((format(printf, 4, 5)));
int vk_stress_set_realtime(int64_t ns, char *err, size_t len);
/* REALTIME set as it would read had no one stepped it since it read
 * real_ns, when MONOTONIC read mono_ns. */
int vk_stress_realtime_back(int64_t real_ns, int64_t mono_ns, char *err, size_t len);
/* The kernel's timezone {minuteswest, dsttime}, by the syscalls: libc may
 * not pass tz (musl's does not). */
int vk_stress_get_tz(int tz[2], char *err, size_t len);
int vk_stress_set_tz(const int tz[2], char *err, size_t len);

#endif
