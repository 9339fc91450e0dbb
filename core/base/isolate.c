// SPDX-License-Identifier: MIT
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/base/children.h"
#include "core/base/isolate.h"

int vk_write_all(int fd, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

double vk_watchdog_hook(const char *env, double dflt)
{
	const char *s = getenv(env);
	char *end;
	double t;

	if (!s || !*s)
		return dflt;
	t = strtod(s, &end);
	return !*end && t > 0 && t < dflt ? t : dflt;
}

double vk_monotonic(void)
{
#if defined(SYS_clock_gettime64)
	/* A time32 reading fails past 2^31 s, as in a time namespace whose
	 * offset puts it there: deadlines must not. */
	struct {
		int64_t sec, nsec;
	} ts;

	if (syscall(SYS_clock_gettime64, CLOCK_MONOTONIC, &ts) == 0)
		return ts.sec + ts.nsec / 1e9;
#endif
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static int append(struct vk_isolated *out, const unsigned char *buf, size_t n)
{
	unsigned char *p = realloc(out->data, out->len + n);

	if (!p)
		return -1;
	memcpy(p + out->len, buf, n);
	out->data = p;
	out->len += n;
	return 0;
}

unsigned long long vk_stat_ticks(const char *path)
{
	char buf[512], *p;
	unsigned long long utime = 0, stime = 0;
	FILE *f = fopen(path, "re");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	/* The fields after the name, which may hold spaces and parentheses. */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &utime, &stime) != 2)
		return 0;
	return utime + stime;
}

/* The CPU time pid has had, in seconds; 0 where /proc cannot tell. */
static double cpu_seconds(pid_t pid)
{
	char path[32];

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	return (double)vk_stat_ticks(path) / sysconf(_SC_CLK_TCK);
}

/*
 * Past its time a child is hung once it has had that time on a CPU, or
 * ten times it on the clock: on a loaded machine a child that was never
 * run is not hung, and a call that waits on nothing uses no CPU.
 */
#define HUNG_WALL_FACTOR 10

int vk_isolate_hung(double cpu, double wall, double timeout, double slowdown)
{
	return cpu >= timeout * (slowdown > 1 ? slowdown : 1) ||
	       wall >= HUNG_WALL_FACTOR * timeout;
}

/*
 * But a virtual CPU that its host starves charges the time it lost to
 * whatever ran on it (under TCG the guest's clocks follow the host's), so
 * a child's CPU time there may say more than it ran. Before calling a
 * child hung, the watchdog runs a yardstick for a quarter of the child's
 * time, WINDOW at most: a fixed loop of about YARD_SECONDS, again and
 * again, whose CPU time against the least this process has seen it take
 * is how much CPU time is inflated now. On a machine whose CPUs are its own, however
 * loaded, CPU time is what ran and that stays under YARD_NOISE (caches,
 * frequencies). A child that answers meanwhile was not hung.
 */
#define YARD_SECONDS 0.0005
#define YARD_NOISE 1.5
#define WINDOW 0.25

static unsigned long yard_loops;
static double yard_best;

static double thread_cpu(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static double yardstick(void)
{
	double start = thread_cpu(), t;

	for (volatile unsigned long i = 0; i < yard_loops; i++)
		;
	t = thread_cpu() - start;
	if (!yard_best || t < yard_best)
		yard_best = t;
	return t;
}

/* The least of three runs, so that one a starved CPU slowed does not
 * leave the loop too short to measure. */
static void calibrate(void)
{
	for (yard_loops = 1024; yard_loops < 1ul << 30; yard_loops *= 2) {
		yard_best = 0;
		for (int i = 0; i < 3; i++)
			yardstick();
		if (yard_best >= YARD_SECONDS)
			break;
	}
}

/* The yardstick, run for seconds on the clock: how much slower than at
 * its best (1 within its noise), or 0 if fd had something meanwhile. */
static double slowdown(int fd, double seconds)
{
	double end, cpu, s;
	unsigned long n = 0;

	if (!yard_loops)
		calibrate();
	/* All of the window's CPU time: a stop between two runs counts too. */
	cpu = thread_cpu();
	for (end = vk_monotonic() + seconds; vk_monotonic() < end; n++) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };

		if (poll(&pfd, 1, 0) > 0)
			return 0;
		yardstick();
	}
	cpu = thread_cpu() - cpu;
	s = n && yard_best > 0 ? cpu / (n * yard_best) : 1;
	return s < YARD_NOISE ? 1 : s;
}

/* Whether the child is hung, its CPU time scaled by *slow, the worst
 * slowdown seen while it ran; -1 if it answered while the yardstick ran. */
static int hung(int fd, pid_t pid, double start, double timeout, double *slow)
{
	double s;

	if (!vk_isolate_hung(cpu_seconds(pid), vk_monotonic() - start, timeout, *slow))
		return 0;
	if (vk_monotonic() - start < HUNG_WALL_FACTOR * timeout) {
		s = slowdown(fd, timeout / 4 < WINDOW ? timeout / 4 : WINDOW);
		if (s == 0)
			return -1;
		*slow = s > *slow ? s : *slow;
	}
	return vk_isolate_hung(cpu_seconds(pid), vk_monotonic() - start, timeout, *slow);
}

/* How long the reader waits on a quiet pipe before it looks whether the
 * child has exited, as a process it forked may hold the pipe open: from
 * a millisecond, twice as long each time, up to a tenth of a second. */
#define EXIT_LOOK_FIRST 0.001
#define EXIT_LOOK 0.1

/* What the pipe holds when the child has exited; not what a process it
 * forked may go on writing. */
static void drain(int fd, struct vk_isolated *out)
{
	unsigned char buf[4096];
	int left = 0;

	ioctl(fd, FIONREAD, &left);
	while (left > 0) {
		ssize_t n = read(fd, buf, left < (int)sizeof(buf) ? left : (int)sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || append(out, buf, n))
			return;
		left -= n;
	}
}

/* Read until EOF, the child's exit, or the child is hung; 1 if it was. */
static int collect(int fd, pid_t pid, double timeout, struct vk_isolated *out)
{
	unsigned char buf[4096];
	double start = vk_monotonic(), deadline = start + timeout, slow = 1, look = EXIT_LOOK_FIRST;

	for (;;) {
		double left = deadline - vk_monotonic(), wait = left < look ? left : look;
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int r;
		ssize_t n;

		if (left <= 0) {
			if (hung(fd, pid, start, timeout, &slow) == 1)
				return 1;
			/* Look again when a tenth of its time has passed. */
			deadline = vk_monotonic() + timeout / HUNG_WALL_FACTOR;
			continue;
		}
		r = poll(&pfd, 1, (int)(wait * 1000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0 && vk_exited(pid)) {
			drain(fd, out);
			return 0;
		}
		if (r == 0) {
			look = look * 2 < EXIT_LOOK ? look * 2 : EXIT_LOOK;
			continue;
		}
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || append(out, buf, n))
			return 0;
	}
}

int vk_isolate_start(void (*fn)(void *ctx, int fd), void *ctx, struct vk_isolating *c)
{
	int fds[2];
	pid_t pid;

	if (pipe(fds))
		return -1;
	/* Buffered output would be written twice, once by the child. */
	fflush(NULL);
	pid = vk_fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	/* The child leads a process group, so that the watchdog also ends
	 * whatever it forked. */
	if (pid == 0) {
		setpgid(0, 0);
		close(fds[0]);
		fn(ctx, fds[1]);
		_exit(0);
	}
	setpgid(pid, pid);
	close(fds[1]);
	c->pid = pid;
	c->fd = fds[0];
	return 0;
}

int vk_isolate_finish(struct vk_isolating *c, double timeout, struct vk_isolated *out)
{
	pid_t pid = c->pid, got;
	int status;

	memset(out, 0, sizeof(*out));
	out->timed_out = collect(c->fd, pid, timeout, out);
	close(c->fd);
	if (out->timed_out)
		kill(-pid, SIGKILL);
	/* Nothing it forked (a library's helper) outlives it. */
	vk_end_group(pid);
	while ((got = vk_waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	if (got != pid) {
		vk_isolated_free(out);
		return -1;
	}
	if (!out->timed_out && WIFSIGNALED(status))
		out->signal = WTERMSIG(status);
	if (WIFEXITED(status)) {
		out->exited = 1;
		out->exit_status = WEXITSTATUS(status);
	}
	return 0;
}

int vk_isolate(void (*fn)(void *ctx, int fd), void *ctx, double timeout,
	       struct vk_isolated *out)
{
	struct vk_isolating c;

	if (vk_isolate_start(fn, ctx, &c))
		return -1;
	return vk_isolate_finish(&c, timeout, out);
}

void vk_isolated_free(struct vk_isolated *out)
{
	free(out->data);
	out->data = NULL;
	out->len = 0;
}

static const char *signame(int sig)
{
	static const char *const names[] = {
		[SIGHUP] = "SIGHUP", [SIGINT] = "SIGINT", [SIGQUIT] = "SIGQUIT",
		[SIGILL] = "SIGILL", [SIGTRAP] = "SIGTRAP", [SIGABRT] = "SIGABRT",
		[SIGBUS] = "SIGBUS", [SIGFPE] = "SIGFPE", [SIGKILL] = "SIGKILL",
		[SIGUSR1] = "SIGUSR1", [SIGSEGV] = "SIGSEGV", [SIGUSR2] = "SIGUSR2",
		[SIGPIPE] = "SIGPIPE", [SIGALRM] = "SIGALRM", [SIGTERM] = "SIGTERM",
		[SIGCHLD] = "SIGCHLD", [SIGCONT] = "SIGCONT", [SIGSTOP] = "SIGSTOP",
		[SIGTSTP] = "SIGTSTP", [SIGTTIN] = "SIGTTIN", [SIGTTOU] = "SIGTTOU",
		[SIGURG] = "SIGURG", [SIGXCPU] = "SIGXCPU", [SIGXFSZ] = "SIGXFSZ",
		[SIGVTALRM] = "SIGVTALRM", [SIGPROF] = "SIGPROF", [SIGWINCH] = "SIGWINCH",
		[SIGIO] = "SIGIO", [SIGSYS] = "SIGSYS",
	};

	return sig > 0 && sig < (int)ARRAY_SIZE(names) ? names[sig] : NULL;
}

void vk_isolated_describe(const struct vk_isolated *out, double timeout, char *buf,
			  size_t len)
{
	if (out->timed_out)
		snprintf(buf, len, "hung for more than %g s", timeout);
	else if (out->signal && signame(out->signal))
		snprintf(buf, len, "killed by %s", signame(out->signal));
	else if (out->signal)
		snprintf(buf, len, "killed by signal %d", out->signal);
	else
		snprintf(buf, len, "exited with status %d", out->exit_status);
}
