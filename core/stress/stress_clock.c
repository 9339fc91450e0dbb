// SPDX-License-Identifier: MIT
/*
 * The kernel clock settings stress changes and restores (adjtimex,
 * settimeofday, clocksource), each in one call that names what the
 * kernel refused (stress.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/call/call.h"
#include "core/stress/stress_clock.h"

int64_t vk_stress_now_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * VK_NSEC + ts.tv_nsec;
}

int vk_stress_adjust(struct timex tx, char *err, size_t len, const char *what, ...)
{
	va_list ap;
	int n;

	if (adjtimex(&tx) >= 0)
		return 0;
	n = snprintf(err, len, "adjtimex(");
	va_start(ap, what);
	if (n > 0 && (size_t)n < len)
		n += vsnprintf(err + n, len - n, what, ap);
	va_end(ap);
	if (n > 0 && (size_t)n < len)
		snprintf(err + n, len - n, "): %s", strerror(errno));
	return -1;
}

int vk_stress_set_realtime(int64_t ns, char *err, size_t len)
{
	struct timespec ts = { .tv_sec = ns / VK_NSEC, .tv_nsec = ns % VK_NSEC };

	if (ns >= 0 && clock_settime(CLOCK_REALTIME, &ts) == 0)
		return 0;
	snprintf(err, len, "clock_settime(CLOCK_REALTIME, %lld ns): %s", (long long)ns,
		 ns < 0 ? "negative" : strerror(errno));
	return -1;
}

int vk_stress_realtime_back(int64_t real_ns, int64_t mono_ns, char *err, size_t len)
{
	return vk_stress_set_realtime(real_ns + vk_stress_now_ns(CLOCK_MONOTONIC) - mono_ns, err, len);
}

int vk_stress_get_tz(int tz[2], char *err, size_t len)
{
#ifdef SYS_gettimeofday
	struct vk_ktv tv;

	if (syscall(SYS_gettimeofday, &tv, tz) == 0)
		return 0;
	snprintf(err, len, "gettimeofday: %s", strerror(errno));
#else
	(void)tz;
	snprintf(err, len, "this ABI has no gettimeofday syscall");
#endif
	return -1;
}

int vk_stress_set_tz(const int tz[2], char *err, size_t len)
{
#ifdef SYS_settimeofday
	if (syscall(SYS_settimeofday, NULL, tz) == 0)
		return 0;
	snprintf(err, len, "settimeofday(NULL, {%d, %d}): %s", tz[0], tz[1], strerror(errno));
#else
	snprintf(err, len, "settimeofday(NULL, {%d, %d}): this ABI has no settimeofday syscall",
		 tz[0], tz[1]);
#endif
	return -1;
}
