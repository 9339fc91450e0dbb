// SPDX-License-Identifier: MIT
/*
 * The watchdog of vk_isolate: a child that spins through its time on a
 * CPU is hung, and so is one blocked for its time (paused, stopped), at
 * that time and not ten times it; one that waits on a process it forked,
 * which runs, is not. Its rule, on planted figures: time spent waiting
 * for a CPU is not the child's, and in a virtual machine whose host
 * starves it, the CPU time charged to a child is scaled down by the
 * slowdown the watchdog's yardstick saw.
 * A child's answer ends at its exit, though a process it forked holds the
 * pipe, and that process dies with it. A test hook only shortens a limit.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/base/children.h"
#include "core/base/isolate.h"
#include "tests/unit/test.h"

/* Waits for a process it forked (in a group of its own, as a nested
 * watchdog's child is) that runs for 1.5 s on the clock, then answers. */
static void wait_on_runner(void *ctx, int fd)
{
	pid_t pid = vk_fork();

	(void)ctx;
	if (pid == 0) {
		double end = vk_monotonic() + 1.5;

		setpgid(0, 0);
		while (vk_monotonic() < end)
			;
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
	vk_write_all(fd, "done", 4);
}

static void nap_then_answer(void *ctx, int fd)
{
	struct timespec ts = { 0, 300000000 };

	(void)ctx;
	nanosleep(&ts, NULL);
	vk_write_all(fd, "done", 4);
}

static void wait_forever(void *ctx, int fd)
{
	(void)ctx;
	(void)fd;
	for (;;)
		pause();
}

static void stop(void *ctx, int fd)
{
	(void)ctx;
	(void)fd;
	raise(SIGSTOP);
}

static void spin(void *ctx, int fd)
{
	(void)ctx;
	(void)fd;
	for (volatile unsigned long i = 0;; i++)
		;
}

/* Forks a helper that holds the pipe for 600 s, sends its pid, exits. */
static void fork_helper(void *ctx, int fd)
{
	pid_t pid = fork();

	(void)ctx;
	if (pid == 0) {
		sleep(600);
		_exit(0);
	}
	vk_write_all(fd, &pid, sizeof(pid));
}

/* Whether pid is gone or a zombie, within 30 s. */
static int ended(pid_t pid)
{
	char path[32], state = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (int i = 0; i < 300; i++) {
		f = fopen(path, "r");
		if (!f || fscanf(f, "%*d (%*[^)]) %c", &state) != 1 || state == 'Z') {
			if (f)
				fclose(f);
			return 1;
		}
		fclose(f);
		usleep(100000);
	}
	return 0;
}

static void raise_xfsz(void *ctx, int fd)
{
	(void)ctx;
	(void)fd;
	raise(SIGXFSZ);
}

static void rule(void)
{
	CHECK(vk_isolate_hung(1, 0, 1, 1, 1), "rule: 1 s on a CPU of a 1 s limit is hung");
	CHECK(!vk_isolate_hung(0.99, 0, 9.9, 1, 1),
	      "rule: 0.99 s on a CPU in 9.9 s, the rest waiting for a CPU, is not");
	CHECK(vk_isolate_hung(0, 1, 1, 1, 1), "rule: 1 s blocked of a 1 s limit is hung");
	CHECK(vk_isolate_hung(0.5, 0.5, 1.2, 1, 1), "rule: 0.5 s on a CPU and 0.5 s blocked is too");
	CHECK(!vk_isolate_hung(0.2, 0.7, 9, 1, 1), "rule: 0.9 s of its own in 9 s is not");
	CHECK(vk_isolate_hung(0.1, 0, 10, 1, 1), "rule: 10 times the limit on the clock is, whatever it ran");
	CHECK(!vk_isolate_hung(1.2, 0, 1.2, 1, 8),
	      "rule: starved (the yardstick 8 times slower), 1.2 s charged in 1.2 s is not hung");
	CHECK(vk_isolate_hung(8, 0, 8.5, 1, 8), "rule: starved, a child charged its 8 s is hung");
	CHECK(vk_isolate_hung(0.3, 0, 10, 1, 40), "rule: starved past the clock's 10 times, hung all the same");
	CHECK(vk_isolate_hung(1, 0, 1, 1, 0.5), "rule: a yardstick faster than its best scales nothing");
}

/* A test hook only ever shortens a watchdog. */
static void hook(void)
{
	const char *env = "VDSOKIT_TEST_WATCHDOG";

	unsetenv(env);
	CHECK(vk_watchdog_hook(env, 30) == 30, "hook: unset, the default");
	setenv(env, "1.5", 1);
	CHECK(vk_watchdog_hook(env, 30) == 1.5, "hook: 1.5 shortens 30 s to 1.5 s");
	setenv(env, "60", 1);
	CHECK(vk_watchdog_hook(env, 30) == 30, "hook: 60 never lengthens 30 s");
	setenv(env, "30", 1);
	CHECK(vk_watchdog_hook(env, 30) == 30, "hook: 30 is the default itself");
	setenv(env, "1s", 1);
	CHECK(vk_watchdog_hook(env, 30) == 30, "hook: a typo (1s) is the default");
	setenv(env, "0", 1);
	CHECK(vk_watchdog_hook(env, 30) == 30, "hook: 0 is the default, not no watchdog");
	setenv(env, "-1", 1);
	CHECK(vk_watchdog_hook(env, 30) == 30, "hook: a negative value is the default");
	setenv(env, "", 1);
	CHECK(vk_watchdog_hook(env, 30) == 30, "hook: an empty value is the default");
	unsetenv(env);
}

int main(void)
{
	struct vk_isolated out;
	double start, waited;
	char why[64];

	rule();
	hook();

	CHECK(vk_isolate(wait_on_runner, NULL, 1, &out) == 0 && !out.timed_out && out.len == 4,
	      "isolate: a child that waits 1.5 s for a process it forked, running, is not hung at 1 s");
	vk_isolated_free(&out);
	CHECK(vk_isolate(nap_then_answer, NULL, 1, &out) == 0 && !out.timed_out && out.len == 4,
	      "isolate: a child asleep 0.3 s of its 1 s answers");
	vk_isolated_free(&out);

	/* Blocked, it is hung at its stated time: not before, and not ten
	 * times it (3 times is a bound no load reaches). */
	start = vk_monotonic();
	CHECK(vk_isolate(wait_forever, NULL, 1, &out) == 0 && out.timed_out,
	      "isolate: a child in pause() is hung");
	waited = vk_monotonic() - start;
	CHECK(waited >= 1 && waited < 3, "isolate: after its 1 s: %.2f s", waited);
	vk_isolated_describe(&out, 1, why, sizeof(why));
	CHECK(!strcmp(why, "hung for more than 1 s"), "isolate: and is said to be: %s", why);
	vk_isolated_free(&out);
	start = vk_monotonic();
	CHECK(vk_isolate(stop, NULL, 1, &out) == 0 && out.timed_out,
	      "isolate: a child stopped by SIGSTOP is hung");
	waited = vk_monotonic() - start;
	CHECK(waited >= 1 && waited < 3, "isolate: after its 1 s: %.2f s", waited);
	vk_isolated_free(&out);
	start = vk_monotonic();
	CHECK(vk_isolate(spin, NULL, 0.2, &out) == 0 && out.timed_out,
	      "isolate: a child spinning through its 0.2 s of CPU is hung");
	printf("# the spinning child was ended after %.2f s on the clock\n", vk_monotonic() - start);
	vk_isolated_free(&out);

	/* Ten times 2 s on the clock is what the watchdog gives a child
	 * whose pipe never closes: it would be "hung" there. */
	CHECK(vk_isolate(fork_helper, NULL, 2, &out) == 0 && !out.timed_out && out.exited &&
		      !out.exit_status && out.len == sizeof(pid_t),
	      "isolate: a child whose helper holds the pipe is read to its exit, not hung");
	if (out.len == sizeof(pid_t)) {
		pid_t helper;

		memcpy(&helper, out.data, sizeof(helper));
		CHECK(ended(helper), "isolate: and the helper in its process group dies with it");
		kill(helper, SIGKILL);
	}
	vk_isolated_free(&out);

	CHECK(vk_isolate(raise_xfsz, NULL, 2, &out) == 0 && out.signal == SIGXFSZ,
	      "isolate: a child killed by SIGXFSZ");
	vk_isolated_describe(&out, 2, why, sizeof(why));
	CHECK(!strcmp(why, "killed by SIGXFSZ"), "isolate: is said to be, by name: %s", why);
	vk_isolated_free(&out);
	return test_exit();
}
