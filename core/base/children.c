// SPDX-License-Identifier: MIT
/*
 * Keeps the run from leaving anything behind: the children it started
 * and the files it was writing, ended and removed on exit or on a signal
 * (children.h).
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/base/children.h"

/* A fixed table, as the signal handler may read it at any moment; a
 * free slot is 0. A run has a few children at a time, never hundreds;
 * one past the table still dies with the run, by PR_SET_PDEATHSIG. */
#define MAX_CHILDREN 64

static volatile sig_atomic_t children[MAX_CHILDREN];

/* The files to remove, read by the handler as the children are. */
#define MAX_LEFT 48

static const char *volatile left[MAX_LEFT];
/* Whose they are: a child that forked without vk_fork() and exits
 * leaves its parent's files alone. */
static volatile pid_t left_by;
/* What a signal says, and whose it is, as left[]. */
static const char *volatile said;
static volatile pid_t said_by;

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
	for (int i = 0; i < MAX_LEFT; i++)
		left[i] = NULL;
	said = NULL;
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

int vk_exited(pid_t pid)
{
	siginfo_t si = { 0 };

	return waitid(P_PID, pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid;
}

void vk_end_group(pid_t pid)
{
	siginfo_t si;

	while (waitid(P_PID, pid, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR)
		;
	kill(-pid, SIGKILL);
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

int vk_children_leave(const char *path)
{
	for (int i = 0; i < MAX_LEFT; i++) {
		if (!left[i]) {
			left_by = getpid();
			left[i] = path;
			return 0;
		}
	}
	return -1;
}

void vk_children_unleave(const char *path)
{
	for (int i = 0; i < MAX_LEFT; i++) {
		if (left[i] == path)
			left[i] = NULL;
	}
}

void vk_children_say(const char *msg)
{
	said_by = getpid();
	said = msg;
}

/* Async-signal-safe: write() only. A stderr gone has nothing else to
 * be told with. */
static void say(void)
{
	const char *msg = said;
	ssize_t n;

	if (!msg || said_by != getpid())
		return;
	n = write(STDERR_FILENO, msg, strlen(msg));
	(void)n;
}

/* Async-signal-safe: unlink() only. */
static void remove_left(void)
{
	if (left_by != getpid())
		return;
	for (int i = 0; i < MAX_LEFT; i++) {
		const char *path = left[i];

		if (path)
			unlink(path);
	}
}

static void at_exit(void)
{
	vk_children_end();
	remove_left();
}

/* Ends the children, then the run, by the same signal: the status the
 * shell sees is 128 + sig. */
static void on_signal(int sig)
{
	vk_children_end();
	remove_left();
	say();
	signal(sig, SIG_DFL);
	raise(sig);
}

void vk_children_catch(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_signal }, old;

	for (unsigned i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	for (unsigned i = 0; i < ARRAY_SIZE(sigs); i++) {
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
	}
	atexit(at_exit);
}
