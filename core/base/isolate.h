/* SPDX-License-Identifier: MIT */
/*
 * Running code that may crash or hang (a libc or --impl under test, a
 * hostile argument) in a forked child under a watchdog. The child writes
 * its answer to a pipe; the parent collects it, and learns whether the
 * child exited, was killed by a signal, or ran out of time.
 */
#ifndef VK_ISOLATE_H
#define VK_ISOLATE_H

#include <stddef.h>
#include <sys/types.h>

struct vk_isolated {
	unsigned char *data;	/* what the child wrote, malloc()ed */
	size_t len;
	int exited;		/* exited normally, with exit_status */
	int exit_status;
	int signal;		/* or killed by this signal */
	int timed_out;		/* or killed by the watchdog */
	int starved;		/* on the clock's bound: it waited for a CPU */
	const char *failed;	/* where vk_isolate failed: "fork", ... */
	int err;		/* and its errno */
};

/* Run fn(ctx, fd) in a child; 0 if the child could be run at all, else
 * -1 and what failed in out (vk_isolate_failure says it). It
 * runs out of time once it has had timeout seconds on a CPU or blocked
 * (asleep, stopped), or ten times that on the clock: the time a loaded
 * machine's child waited for a CPU is not its own. Its
 * answer is what it wrote before it exited, whoever else holds the pipe;
 * then what it forked into its process group is killed with it. */
int vk_isolate(void (*fn)(void *ctx, int fd), void *ctx, double timeout,
	       struct vk_isolated *out);
/* vk_isolate() in two steps, for a child that runs while its parent
 * goes on: the child is started (-1 and what failed in c where not),
 * then waited for as vk_isolate() does, timeout counted from the wait.
 * What it writes meanwhile must fit in a pipe's buffer (64 KiB), or it
 * waits for the parent. */
struct vk_isolating {
	pid_t pid;
	int fd;
	const char *failed;
	int err;
};
int vk_isolate_start(void (*fn)(void *ctx, int fd), void *ctx, struct vk_isolating *c);
int vk_isolate_finish(struct vk_isolating *c, double timeout, struct vk_isolated *out);
/* The watchdog's rule: a child that had cpu seconds on a CPU and was
 * blocked for blocked seconds in wall is hung past timeout once cpu over
 * slowdown (how much slower than at its best the machine ran meanwhile,
 * which a starved virtual CPU charges to the child; 1 at least), plus
 * blocked, reach timeout, or wall ten times it. */
int vk_isolate_hung(double cpu, double blocked, double wall, double timeout, double slowdown);
void vk_isolated_free(struct vk_isolated *out);
/* "vdsokit could not fork (Resource temporarily unavailable)", or could
 * not make a pipe, or wait for its child: why vk_isolate returned -1. */
void vk_isolate_failure(const struct vk_isolated *out, char *buf, size_t len);
/* The same as a result's detail: "not tested: vdsokit could not fork (...)". */
void vk_isolate_not_tested(const struct vk_isolated *out, char *buf, size_t len);
/* A watchdog's timeout: dflt, or less where the environment variable env
 * (a test hook, so that a hang costs the tests less) says so; a longer,
 * empty or bad value is dflt, so a typo never makes a hang wait longer. */
double vk_watchdog_hook(const char *env, double dflt);
/*
 * vdsokit run afresh (/proc/self/exe) with argv, in a child: its stdout
 * must be exactly size bytes, read into answer, within timeout s. 0; -1
 * where vdsokit could not start it (fork, exec: its own error); -2 where
 * it crashed, hung or answered otherwise. why says which.
 */
int vk_exec_self(char *const *argv, void *answer, size_t size, double timeout, char *why,
		 size_t len);
/* "killed by SIGSEGV", "hung for more than 5 s", "exited with status 3". */
void vk_isolated_describe(const struct vk_isolated *out, double timeout, char *buf,
			  size_t len);
/* utime + stime of a /proc/.../stat file, in clock ticks; 0 if gone. */
unsigned long long vk_stat_ticks(const char *path);
/* CLOCK_MONOTONIC in seconds, for deadlines, right even past 2^31 s. */
double vk_monotonic(void);
/* Write all of buf to fd, retrying short writes; -1 on error. */
int vk_write_all(int fd, const void *buf, size_t len);

#endif /* VK_ISOLATE_H */
