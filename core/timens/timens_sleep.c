// SPDX-License-Identifier: MIT
/*
 * clock_nanosleep(TIMER_ABSTIME) in the namespace's time, as the kernel's
 * timens/clock_nanosleep selftest checks it: the kernel turns the time
 * slept to into the host's. A sleep to 20 ms past the clock's reading
 * inside must end after that time (a kernel that took it as the host's
 * time, behind, would return at once) and within 10 s (ahead, it would
 * sleep for the offset).
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/base/sysinfo.h"
#include "core/call/call.h"
#include "core/timens/timens_check.h"

#define SLEEP_NS 20000000
#define WATCHDOG_S 10

static void ring(int sig)
{
	(void)sig;
}

static int64_t ns_of(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

static void sleep_to(struct vk_results *rs, clockid_t id, const char *api)
{
	struct vk_result *r = vk_results_add(rs, api, VK_PATH_SYSCALL, "abstime");
	struct timespec now, until, after;
	int err;

	r->calls = 1;
	/* Past 2^31 s a 32-bit time_t cannot hold the time: EOVERFLOW. */
	if (clock_gettime(id, &now)) {
		vk_result_skip(r, "not slept: clock_gettime() failed: %s", strerror(errno));
		return;
	}
	until = now;
	until.tv_nsec += SLEEP_NS;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	alarm(WATCHDOG_S);
	err = clock_nanosleep(id, TIMER_ABSTIME, &until, NULL);
	alarm(0);
	clock_gettime(id, &after);
	if (err == EINTR)
		vk_result_fail(rs, r, "a sleep to 20 ms past the namespace's time had not ended after %d s",
			       WATCHDOG_S);
	else if (err == ENOSYS && vk_time32_missing())
		vk_result_skip(r, "not slept: libc's clock_nanosleep() returned ENOSYS: %s",
			       VK_WHY_NO_TIME32);
	else if (err)
		vk_result_fail(rs, r, "clock_nanosleep(TIMER_ABSTIME) failed: %s", strerror(err));
	else if (ns_of(&after) < ns_of(&until))
		vk_result_fail(rs, r, "woke %lld ns before the namespace's time it slept to",
			       (long long)(ns_of(&until) - ns_of(&after)));
}

void vk_timens_sleep(struct vk_results *rs)
{
	/* No SA_RESTART: the watchdog's signal ends the sleep with EINTR. */
	struct sigaction sa = { .sa_handler = ring }, old;

	sigaction(SIGALRM, &sa, &old);
	sleep_to(rs, CLOCK_MONOTONIC, "clock-nanosleep-monotonic");
	sleep_to(rs, CLOCK_BOOTTIME, "clock-nanosleep-boottime");
	sigaction(SIGALRM, &old, NULL);
}
