// SPDX-License-Identifier: MIT
/*
 * Runs code that may crash, hang or exit (a libc or --impl under test) in
 * a child under a watchdog, and says how it ended (isolate.h).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <dirent.h>
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
 * A child is hung once it has had its time: on a CPU, or blocked (asleep,
 * stopped: no process of its tree could run), which is how a call that
 * waits on nothing hangs. Time it waited for a CPU is not its own: on a
 * loaded machine a child that was never run is not hung. Ten times its
 * time on the clock is the bound of last resort, for a child starved
 * that long.
 */
#define HUNG_WALL_FACTOR 10

int vk_isolate_hung(double cpu, double blocked, double wall, double timeout, double slowdown)
{
	return cpu / (slowdown > 1 ? slowdown : 1) + blocked >= timeout ||
	       wall >= HUNG_WALL_FACTOR * timeout;
}

/* The state letter of a /proc/.../stat file (R: running or waiting for a
 * CPU), with its parent and threads; 0 if it is gone. */
static char proc_state(const char *path, pid_t *ppid, long *threads)
{
	char buf[512], *p, state;
	FILE *f = fopen(path, "re");
	size_t n = 0;
	int parent;

	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	/* The fields after the name, which may hold spaces and parentheses. */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d "
			 "%*d %*d %ld", &state, &parent, threads) != 3)
		return 0;
	*ppid = parent;
	return state;
}

/* Whether a thread of process pid runs or waits for a CPU. */
static int runnable(pid_t pid)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	pid_t ppid;
	long threads = 0;
	int r;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	r = proc_state(path, &ppid, &threads) == 'R';
	if (r || threads < 2)
		return r;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	while (dir && !r && (d = readdir(dir))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.16s/stat", (int)pid, d->d_name);
		r = proc_state(path, &ppid, &threads) == 'R';
	}
	if (dir)
		closedir(dir);
	return r;
}

/* The parent of each process (a table of at most VK_TREE_MAX), to find a
 * child's descendants: those it forked, in a process group of their own
 * or not, which it may be waiting for. */
#define VK_TREE_MAX 4096

struct proc_entry {
	pid_t pid, ppid;
};

static size_t read_procs(struct proc_entry *e, size_t max)
{
	DIR *dir = opendir("/proc");
	struct dirent *d;
	size_t n = 0;

	while (dir && n < max && (d = readdir(dir))) {
		char path[64];
		long threads;

		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		e[n].pid = atoi(d->d_name);
		snprintf(path, sizeof(path), "/proc/%.16s/stat", d->d_name);
		if (proc_state(path, &e[n].ppid, &threads))
			n++;
	}
	if (dir)
		closedir(dir);
	return n;
}

/* The descendants of root in e[0..n), moved to its front: how many. A
 * pass finds the children of those found so far, until one finds none. */
static size_t descendants(struct proc_entry *e, size_t n, pid_t root)
{
	size_t found = 0, before;

	do {
		before = found;
		for (size_t i = found; i < n; i++) {
			int ours = e[i].ppid == root;

			for (size_t j = 0; j < found && !ours; j++)
				ours = e[i].ppid == e[j].pid;
			if (ours) {
				struct proc_entry t = e[found];

				e[found++] = e[i];
				e[i] = t;
			}
		}
	} while (found != before);
	return found;
}

#define RAN_UNKNOWN (~0ull)

/* Nanoseconds the threads of pid ran and waited for a CPU (schedstat's
 * first two fields), added to *ran; RAN_UNKNOWN where /proc cannot tell. */
static void add_ran(pid_t pid, unsigned long long *ran)
{
	char path[64];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		*ran = RAN_UNKNOWN;
	while (dir && *ran != RAN_UNKNOWN && (d = readdir(dir))) {
		unsigned long long on = 0, wait = 0;
		FILE *f;

		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.16s/schedstat", (int)pid, d->d_name);
		f = fopen(path, "re");
		if (f && fscanf(f, "%llu %llu", &on, &wait) == 2)
			*ran += on + wait;
		else
			*ran = RAN_UNKNOWN;
		if (f)
			fclose(f);
	}
	if (dir)
		closedir(dir);
}

/*
 * Whether the child pid and everything it forked are blocked: no thread
 * of theirs running or waiting for a CPU; then in *ran how long they ran
 * and waited for one in all (RAN_UNKNOWN where it is not known), which
 * stays put while they stay blocked. Where /proc cannot tell, it is not
 * blocked: the CPU and the clock's bounds are all the watchdog has then.
 */
static int blocked(pid_t pid, unsigned long long *ran)
{
	static struct proc_entry e[VK_TREE_MAX];
	char path[32], state;
	pid_t ppid;
	long threads;
	size_t n;

	*ran = RAN_UNKNOWN;
	/* One that has exited is collect()'s to see, not blocked. */
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	state = proc_state(path, &ppid, &threads);
	if (!state || state == 'Z' || state == 'X' || runnable(pid))
		return 0;
	*ran = 0;
	add_ran(pid, ran);
	n = descendants(e, read_procs(e, VK_TREE_MAX), pid);
	for (size_t i = 0; i < n; i++) {
		if (runnable(e[i].pid))
			return 0;
		add_ran(e[i].pid, ran);
	}
	return 1;
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

/* A child under the watchdog: the time it was blocked, as sampled. */
struct watch {
	pid_t pid;
	double timeout, start, slow;	/* slow: the worst slowdown seen while it ran */
	double blocked, sampled;	/* blocked seconds, up to when it was sampled */
	unsigned long long ran;		/* blocked()'s ran then */
};

/* Look whether the child is blocked, a twentieth of its time apart: it
 * was for the time since the last look if it is now and nothing of it ran
 * meanwhile, however late the look (a loaded machine's watchdog wakes
 * late). Where something ran, or that is not known, the time since counts
 * for two looks at most, so that a child caught asleep once is not
 * charged the time it ran meanwhile. */
#define SAMPLES 20

static double sample_every(double timeout)
{
	return timeout / SAMPLES > 0.001 ? timeout / SAMPLES : 0.001;
}

static void sample(struct watch *w)
{
	double now = vk_monotonic(), most = 2 * sample_every(w->timeout), since = now - w->sampled;
	unsigned long long ran;

	if (blocked(w->pid, &ran))
		w->blocked += ran != RAN_UNKNOWN && ran == w->ran ? since :
			      since < most ? since : most;
	w->ran = ran;
	w->sampled = now;
}

static int past(const struct watch *w)
{
	return vk_isolate_hung(cpu_seconds(w->pid), w->blocked, vk_monotonic() - w->start,
			       w->timeout, w->slow);
}

/* Whether the child is hung; -1 if it answered while the yardstick ran. */
static int hung(int fd, struct watch *w)
{
	double s;

	if (!past(w))
		return 0;
	if (vk_monotonic() - w->start < HUNG_WALL_FACTOR * w->timeout) {
		s = slowdown(fd, w->timeout / 4 < WINDOW ? w->timeout / 4 : WINDOW);
		if (s == 0)
			return -1;
		w->slow = s > w->slow ? s : w->slow;
	}
	return past(w);
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
	struct watch w = { pid, timeout, vk_monotonic(), 1, 0, 0, RAN_UNKNOWN };
	double next = w.start + sample_every(timeout), check = w.start + timeout;
	double look = EXIT_LOOK_FIRST;

	w.sampled = w.start;
	for (;;) {
		double left = next - vk_monotonic(), wait = left < look ? left : look;
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int r;
		ssize_t n;

		if (left <= 0) {
			sample(&w);
			/* Past its time on the clock it may be hung: look
			 * then, and again each tenth of its time. */
			if (vk_monotonic() >= check) {
				if (hung(fd, &w) == 1) {
					/* Killed on the clock's bound, not its own. */
					out->starved = !vk_isolate_hung(cpu_seconds(pid), w.blocked, 0,
									timeout, w.slow);
					return 1;
				}
				check = vk_monotonic() + timeout / HUNG_WALL_FACTOR;
			}
			next = vk_monotonic() + sample_every(timeout);
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

/* vk_isolate could not do what: said with its errno, -1. */
static int failed(const char **failed, int *err, const char *what)
{
	*failed = what;
	*err = errno;
	return -1;
}

int vk_isolate_start(void (*fn)(void *ctx, int fd), void *ctx, struct vk_isolating *c)
{
	int fds[2];
	pid_t pid;

	if (pipe(fds))
		return failed(&c->failed, &c->err, "make a pipe");
	/* Buffered output would be written twice, once by the child. */
	fflush(NULL);
	pid = vk_fork();
	if (pid < 0) {
		failed(&c->failed, &c->err, "fork");
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
		failed(&out->failed, &out->err, "wait for its child");
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

	if (vk_isolate_start(fn, ctx, &c)) {
		memset(out, 0, sizeof(*out));
		out->failed = c.failed;
		out->err = c.err;
		return -1;
	}
	return vk_isolate_finish(&c, timeout, out);
}

void vk_isolate_failure(const struct vk_isolated *out, char *buf, size_t len)
{
	snprintf(buf, len, "vdsokit could not %s (%s)", out->failed ? out->failed : "fork",
		 strerror(out->err));
}

void vk_isolate_not_tested(const struct vk_isolated *out, char *buf, size_t len)
{
	int n = snprintf(buf, len, "not tested: ");

	if (n >= 0 && (size_t)n < len)
		vk_isolate_failure(out, buf + n, len - n);
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
	if (out->timed_out && out->starved)
		snprintf(buf, len, "hung for more than %g s (%g s on the clock, starved of CPU)",
			 timeout, HUNG_WALL_FACTOR * timeout);
	else if (out->timed_out)
		snprintf(buf, len, "hung for more than %g s", timeout);
	else if (out->signal && signame(out->signal))
		snprintf(buf, len, "killed by %s", signame(out->signal));
	else if (out->signal)
		snprintf(buf, len, "killed by signal %d", out->signal);
	else
		snprintf(buf, len, "exited with status %d", out->exit_status);
}

#define EXEC_FAILED 126		/* the exec()ed child's status where exec() failed */

static void exec_self(void *ctx, int fd)
{
	char *const *argv = ctx;

	if (dup2(fd, STDOUT_FILENO) >= 0)
		execv("/proc/self/exe", argv);
	_exit(EXEC_FAILED);
}

int vk_exec_self(char *const *argv, void *answer, size_t size, double timeout, char *why,
		 size_t len)
{
	struct vk_isolated out;
	int ret = -2;

	fflush(NULL);
	if (vk_isolate(exec_self, (void *)argv, timeout, &out)) {
		vk_isolate_failure(&out, why, len);
		return -1;
	}
	if (out.len == size && out.exited && !out.exit_status) {
		memcpy(answer, out.data, size);
		ret = 0;
	} else if (out.exited && out.exit_status == EXEC_FAILED) {
		snprintf(why, len, "vdsokit could not exec() itself afresh (/proc/self/exe)");
		ret = -1;
	} else {
		vk_isolated_describe(&out, timeout, why, len);
	}
	vk_isolated_free(&out);
	return ret;
}
