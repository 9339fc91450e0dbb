// SPDX-License-Identifier: MIT
/*
 * vm's limits count how far qemu ran (core/vm/vm_progress.c), not the
 * clock: the rule on planted figures, and the measure on a child that
 * spins, then is stopped as a starved qemu is.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/base/isolate.h"
#include "core/vm/vm.h"
#include "tests/unit/test.h"

static void rule(void)
{
	CHECK(vk_vm_overdue(149.9, 149.9, 150) == 0, "overdue: 149.9 s of 150 run is not past");
	CHECK(vk_vm_overdue(150, 150, 150) == VK_VM_OVERDUE_RAN, "overdue: 150 s run of 150 is");
	CHECK(vk_vm_overdue(599, 20, 150) == 0,
	      "overdue: starved, 20 s run in 599 s on the clock, is not past 150");
	CHECK(vk_vm_overdue(600, 20, 150) == VK_VM_OVERDUE_WALL,
	      "overdue: 4 times the limit on the clock is, whatever it ran");
	CHECK(vk_vm_overdue(150, -1, 150) == VK_VM_OVERDUE_WALL,
	      "overdue: where /proc tells nothing, the clock alone: 150 s is past 150");
	CHECK(vk_vm_overdue(149, -1, 150) == 0, "overdue: and 149 s is not");
}

static void pause_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	nanosleep(&ts, NULL);
}

/* Whether pid is stopped, as /proc says. */
static int stopped(pid_t pid)
{
	char path[32], buf[256], *p;
	FILE *f;
	size_t n = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((f = fopen(path, "r"))) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[2] == 'T';
}

int main(void)
{
	struct vk_vm_progress p;
	double ran = 0, before, after, start;
	pid_t pid;

	rule();
	pid = fork();
	if (pid == 0) {
		for (volatile unsigned long i = 0;; i++)
			;
	}
	vk_vm_progress_start(&p, pid);
	/* However loaded the machine, a spinning child runs at last. */
	for (start = vk_monotonic(); vk_monotonic() - start < 120; pause_s(0.05)) {
		if ((ran = vk_vm_progress_ran(&p)) >= 0.2)
			break;
	}
	CHECK(ran >= 0.2, "progress: a spinning child is seen to run (%.2f s)", ran);
	kill(pid, SIGSTOP);
	while (!stopped(pid))
		pause_s(0.01);
	before = vk_vm_progress_ran(&p);
	pause_s(0.3);
	after = vk_vm_progress_ran(&p);
	CHECK(after == before, "progress: stopped, it runs no further while the clock goes on (%.2f, %.2f s)",
	      before, after);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	CHECK(vk_vm_progress_ran(&p) < 0, "progress: of a process that is gone: unknown (-1)");
	return test_exit();
}
