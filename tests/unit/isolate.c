// SPDX-License-Identifier: MIT
/*
 * The watchdog of vk_isolate: a child that has not had its time on a CPU
 * (a loaded machine's, here one that waits on nothing) is not hung at its
 * limit, and one that spins through it is. Its rule, on planted figures:
 * in a virtual machine whose host starves it, the CPU time charged to a
 * child is scaled down by the slowdown the watchdog's yardstick saw.
 * A child's answer ends at its exit, though a process it forked holds the
 * pipe, and that process dies with it. A test hook only shortens a limit.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/base/isolate.h"
#include "tests/unit/test.h"

static void wait_then_answer(void *ctx, int fd)
{
	struct timespec ts = { 1, 500000000 };

	(void)ctx;
	nanosleep(&ts, NULL);
	vk_write_all(fd, "done", 4);
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
	CHECK(vk_isolate_hung(1, 1, 1, 1), "rule: 1 s on a CPU of a 1 s limit is hung");
	CHECK(!vk_isolate_hung(0.99, 9.9, 1, 1), "rule: 0.99 s on a CPU in 9.9 s is not");
	CHECK(vk_isolate_hung(0.1, 10, 1, 1), "rule: 10 times the limit on the clock is, whatever it ran");
	CHECK(!vk_isolate_hung(1.2, 1.2, 1, 8),
	      "rule: starved (the yardstick 8 times slower), 1.2 s charged in 1.2 s is not hung");
	CHECK(vk_isolate_hung(8, 8.5, 1, 8), "rule: starved, a child charged its 8 s is hung");
	CHECK(vk_isolate_hung(0.3, 10, 1, 40), "rule: starved past the clock's 10 times, hung all the same");
	CHECK(vk_isolate_hung(1, 1, 1, 0.5), "rule: a yardstick faster than its best scales nothing");
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
	double start;
	char why[64];

	rule();
	hook();

	CHECK(vk_isolate(wait_then_answer, NULL, 1, &out) == 0 && !out.timed_out &&
		      out.len == 4,
	      "isolate: a child off the CPU 1.5 s answers past its 1 s limit, not hung");
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
