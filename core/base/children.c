// SPDX-License-Identifier: MIT
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base/children.h"

/* A fixed table, as the signal handler may read it at any moment; a
 * free slot is 0. A run has a few children at a time, never hundreds;
 * one past the table still dies with the run, by PR_SET_PDEATHSIG. */
#define MAX_CHILDREN 64

static volatile sig_atomic_t children[MAX_CHILDREN];

static void remember(pid_t pid)
{
	for (int i = 0; i < MAX_CHILDREN; i++) {
		if (!children[i]) {
			children[i] = pid;
			return;
		}
	}
}

static void forget(pid_t pid)
{
	for (int i = 0; i < MAX_CHILDREN; i++) {
		if (children[i] == pid)
			children[i] = 0;
	}
}

/* In the child: its parent's children are not its own, and it must not
 * outlive that parent, even when the parent died before prctl(). */
static void child_started(pid_t parent)
{
	for (int i = 0; i < MAX_CHILDREN; i++)
		children[i] = 0;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		raise(SIGKILL);
}

pid_t vk_fork(void)
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0)
		child_started(parent);
	else if (pid > 0)
		remember(pid);
	return pid;
}

pid_t vk_waitpid(pid_t pid, int *status, int options)
{
	pid_t got = waitpid(pid, status, options);

	if (got > 0)
		forget(got);
	return got;
}

/* Async-signal-safe: kill() only. A child that leads a process group
 * (vk_isolate's) takes what it forked with it. */
void vk_children_end(void)
{
	for (int i = 0; i < MAX_CHILDREN; i++) {
		pid_t pid = children[i];

		if (pid > 0) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		}
	}
}

/* Ends the children, then the run, by the same signal: the status the
 * shell sees is 128 + sig. */
static void on_signal(int sig)
{
	vk_children_end();
	signal(sig, SIG_DFL);
	raise(sig);
}

void vk_children_catch(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_signal }, old;

	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
	}
	atexit(vk_children_end);
}
