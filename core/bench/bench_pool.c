// SPDX-License-Identifier: MIT
/*
 * Runs bench's worker processes and gathers their samples, so that each
 * figure spans fresh address-space layouts (bench_pool.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/bench/bench_pool.h"
#include "core/base/children.h"
#include "core/base/isolate.h"
#include "core/bench/stats.h"

/* Append one worker's samples of a row to the run's. */
static int add_samples(struct vk_bench_result *r, int k, char *rest)
{
	unsigned long batch;
	unsigned long long calls;
	long switches;
	int n, used;

	if (sscanf(rest, "%lu %llu %ld %d%n", &batch, &calls, &switches, &n, &used) != 4 ||
	    n < 1 || r->n + n > VK_BENCH_MAX_SAMPLES || k >= VK_BENCH_MAX_GROUPS)
		return -1;
	/* A row another worker could not run is skipped for all. */
	if (r->skipped)
		return 0;
	rest += used;
	for (int i = 0; i < n; i++) {
		char *end;

		r->samples[r->n + i] = strtod(rest, &end);
		if (end == rest)
			return -1;
		rest = end;
	}
	if (!r->ngroups)
		r->batch = batch;
	r->n += n;
	r->group_n[r->ngroups++] = n;
	r->calls += calls;
	r->involuntary_switches += switches;
	return 0;
}

/* "I ...": row I's result, or NULL; *rest is what follows I. */
static struct vk_bench_result *row_of(struct vk_bench_rows *rows, char *s, char **rest,
				      long *at)
{
	unsigned long i = strtoul(s, rest, 10);

	if (*rest == s || **rest != ' ' || i >= rows->n)
		return NULL;
	*at = (long)i;
	(*rest)++;
	return &rows->r[i];
}

/*
 * One worker's throughput of a row under --threads: "ALL ONE AT_ONCE",
 * calls per second, and the share of the window its threads held their
 * CPUs (above 1 only by the clocks' granularity).
 */
static int add_threads(struct vk_bench_result *r, char *rest)
{
	char *end;
	double all = strtod(rest, &end), one = strtod(end, &end), at_once = strtod(end, &end);

	if (*end != '\n' || !(all > 0) || !(one > 0) || !(at_once >= 0 && at_once <= 2) ||
	    r->thr_n >= VK_BENCH_MAX_GROUPS)
		return -1;
	r->thr_all[r->thr_n] = all;
	r->thr_at_once[r->thr_n] = at_once;
	r->thr_one[r->thr_n++] = one;
	return 0;
}

static void add_skip(struct vk_bench_result *r, const char *why)
{
	if (r->skipped || r->failed)
		return;
	snprintf(r->why, sizeof(r->why), "%.*s", (int)strcspn(why, "\n"), why);
	r->skipped = r->why;
}

/*
 * "FAILED CALLS ERRNO": row r's calls failed in a worker, which fails
 * the row for all, whatever the others measured.
 */
static int add_fail(struct vk_bench_result *r, const struct vk_bench_case *c, char *rest)
{
	unsigned long long failed, calls;
	int err, used;

	if (sscanf(rest, "%llu %llu %d%n", &failed, &calls, &err, &used) != 3 ||
	    rest[used] != '\n' || !failed || failed > calls || err <= 0)
		return -1;
	r->failed += failed;
	r->failed_of += calls;
	r->err = err;
	r->call = vk_funcs[c->func].name;
	vk_bench_failed_why(r);
	return 0;
}

/* Row i's case: the rows are the cases', each path in turn. */
static const struct vk_bench_case *case_of(const struct vk_bench_rows *rows,
					   const struct vk_bench_result *r)
{
	return &rows->cases[(size_t)(r - rows->r) / (rows->n / rows->ncases)];
}

static int add_ref(const char *s, double (*ref)[VK_BENCH_MAX_CASES + 1], size_t *n)
{
	char *end;

	for (int k = 0; k < VK_REF_KINDS; k++, s = end)
		ref[k][*n] = strtod(s, &end);
	if (*s != '\n')
		return -1;
	(*n)++;
	return 0;
}

enum vk_worker_end vk_bench_pool_read(char *buf, struct vk_bench_rows *rows, int k, long *at)
{
	double ref[VK_REF_KINDS][VK_BENCH_MAX_CASES + 1];
	struct vk_bench_result *r;
	size_t nref = 0;
	char *line, *nl, *rest, next;
	int done = 0, bad = 0;

	for (line = buf; !done && !bad && (nl = strchr(line, '\n')); line = nl + 1) {
		/* One line at a time, its newline kept, as the parsers want it. */
		next = nl[1];
		nl[1] = '\0';
		if (!strcmp(line, "end\n"))
			done = 1;
		else if (!strncmp(line, "ref ", 4) && nref < ARRAY_SIZE(ref[0]))
			bad = add_ref(line + 4, ref, &nref);
		else if (!strncmp(line, "row ", 4) && (r = row_of(rows, line + 4, &rest, at)))
			bad = add_samples(r, k, rest);
		else if (!strncmp(line, "thr ", 4) && (r = row_of(rows, line + 4, &rest, at)))
			bad = add_threads(r, rest);
		else if (!strncmp(line, "skip ", 5) && (r = row_of(rows, line + 5, &rest, at)))
			add_skip(r, rest);
		else if (!strncmp(line, "fail ", 5) && (r = row_of(rows, line + 5, &rest, at)))
			bad = add_fail(r, case_of(rows, r), rest);
		else
			bad = 1;
		nl[1] = next;
	}
	for (int kind = 0; kind < VK_REF_KINDS; kind++)
		rows->ref[k].ns[kind] = nref ? vk_median(ref[kind], nref) : NAN;
	return bad ? VK_WORKER_BAD : done ? VK_WORKER_OK : VK_WORKER_SHORT;
}

/* How long a read waits before it looks whether the worker has exited. */
#define EXIT_LOOK_MS 100

/*
 * A worker's output until it exits, NUL-terminated in *buf: not until
 * EOF, which a process it forked (a --impl constructor's helper) holding
 * its stdout may put off for as long as that lives. 1 if it was silent
 * for longer than limit seconds first (a call that never returns), -1
 * if it could not be kept.
 */
static int slurp(int fd, pid_t pid, double limit, char **buf)
{
	size_t len = 0, cap = 4096;
	char *p = malloc(cap);
	double heard = vk_monotonic();
	int left = -1;		/* what the pipe held at the exit; -1 before */

	*buf = p;
	if (!p)
		return -1;
	while (left) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		double quiet = limit - (vk_monotonic() - heard);
		ssize_t n;
		int r;

		if (quiet <= 0) {
			p[len] = '\0';
			return 1;
		}
		r = poll(&pfd, 1, quiet * 1000 < EXIT_LOOK_MS ? (int)(quiet * 1000) + 1 : EXIT_LOOK_MS);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0 && left < 0 && vk_exited(pid) && ioctl(fd, FIONREAD, &left))
			left = 0;
		if (r == 0)
			continue;
		if (cap - len < 2048) {
			p = realloc(*buf, cap *= 2);
			if (!p)
				return -1;
			*buf = p;
		}
		n = read(fd, p + len, left > 0 && left < (int)(cap - len - 1) ? (size_t)left :
			 cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
		heard = vk_monotonic();
		if (left > 0)
			left -= n;
	}
	p[len] = '\0';
	return 0;
}

/* Exec path with its stdout to out; where that fails, its errno down err. */
static void child(const char *path, char *const argv[], int out, int err)
{
	int e;

	/* Its own group, ended with it: nothing it forked outlives it. */
	setpgid(0, 0);
	if (dup2(out, STDOUT_FILENO) >= 0)
		execv(path, argv);
	e = errno;
	vk_write_all(err, &e, sizeof(e));
	_exit(127);
}

/* The exec's errno, or 0 once the exec closed the pipe (or there was none). */
static int exec_errno(int fd)
{
	int e = 0;
	ssize_t n;

	do
		n = read(fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	return n == sizeof(e) ? e : 0;
}

static int no_start(struct vk_worker *w, int err)
{
	w->end = VK_WORKER_NO_START;
	w->err = err;
	return -1;
}

/*
 * Fork a worker: its pid and its stdout's read end in *out, and in *err
 * the exec's errno (0: it runs); -1 and errno if no worker was forked.
 */
static pid_t start(const char *path, char *const argv[], int *out, int *err)
{
	int fd[2], efd[2], e;
	pid_t pid;

	if (pipe(fd))
		return -1;
	if (pipe2(efd, O_CLOEXEC)) {
		e = errno;
		close(fd[0]);
		close(fd[1]);
		errno = e;
		return -1;
	}
	pid = vk_fork();
	if (pid == 0) {
		close(fd[0]);
		close(efd[0]);
		child(path, argv, fd[1], efd[1]);
	}
	e = errno;
	if (pid > 0)
		setpgid(pid, pid);
	close(fd[1]);
	close(efd[1]);
	*err = pid > 0 ? exec_errno(efd[0]) : 0;
	close(efd[0]);
	if (pid < 0)
		close(fd[0]);
	*out = fd[0];
	errno = e;
	return pid;
}

int vk_bench_pool_run(const char *path, char *const argv[], double silence,
		      struct vk_bench_rows *rows, int k, struct vk_worker *w)
{
	char *buf = NULL;
	int fd, got = -1;
	pid_t pid;

	*w = (struct vk_worker){ .end = VK_WORKER_BAD, .at = -1 };
	pid = start(path, argv, &fd, &w->err);
	if (pid < 0)
		return no_start(w, errno);
	if (!w->err)
		got = slurp(fd, pid, silence, &buf);
	close(fd);
	if (got >= 0)
		w->end = vk_bench_pool_read(buf, rows, k, &w->at);
	if (got == 1) {
		kill(pid, SIGKILL);
		w->end = VK_WORKER_SILENT;
	}
	vk_end_group(pid);
	free(buf);
	if (vk_waitpid(pid, &w->wstatus, 0) != pid)
		return no_start(w, errno);
	if (w->err) {
		w->end = VK_WORKER_NO_EXEC;
		return -1;
	}
	return w->end == VK_WORKER_OK && WIFEXITED(w->wstatus) && !WEXITSTATUS(w->wstatus) ? 0 : -1;
}
