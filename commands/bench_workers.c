// SPDX-License-Identifier: MIT
/*
 * bench's worker processes. Each is a fresh exec of this binary: a new
 * address-space layout, new pages for its code and data, a new load of
 * --impl. What differs from process to process for those reasons differs
 * from boot to boot too, so a figure is trusted only as far as it holds
 * across processes. Workers run one after the other, never together: they
 * would share the CPU they measure on.
 *
 * A worker prints, one line each, in hex floats so that nothing is lost:
 *   ref CPU LOADS SYS           the reference loops, ns per step
 *   row I BATCH CALLS SWITCHES N S1 ... SN   samples of row I
 *   skip I REASON
 *   end
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base/children.h"
#include "core/bench/stats.h"
#include "commands/bench_cmd.h"

#define MAX_ARGS (24 + VK_BENCH_MAX_CASES)

/* --- the worker --- */

int vk_bench_worker_timer(const char *arg, struct vk_timer *t)
{
	char *end;

	t->name = VK_TIMER_NAME;
	t->ns_per_tick = strtod(arg, &end);
	if (*end != ':' || !(t->ns_per_tick > 0))
		return -1;
	t->overhead = strtod(end + 1, &end);
	return *end || !(t->overhead >= 0) ? -1 : 0;
}

static void print_row(size_t i, const struct vk_bench_result *r)
{
	if (r->skipped) {
		printf("skip %zu %s\n", i, r->skipped);
		return;
	}
	printf("row %zu %lu %llu %ld %d", i, r->batch, r->calls, r->involuntary_switches, r->n);
	for (int k = 0; k < r->n; k++)
		printf(" %a", r->samples[k]);
	putchar('\n');
}

static void print_ref(const struct vk_bench *b)
{
	struct vk_bench_ref ref;

	vk_bench_reference(b, &ref);
	printf("ref");
	for (int k = 0; k < VK_REF_KINDS; k++)
		printf(" %a", ref.ns[k]);
	putchar('\n');
}

int vk_bench_worker(const char *cmd, const struct vk_bench_cmd_opts *o, struct vk_bench *b,
		    const struct vk_bench_case *cases, size_t ncases)
{
	struct vk_bench_result r;
	size_t row = 0;

	print_ref(b);
	for (size_t i = 0; i < ncases; i++) {
		for (int p = 0; p < VK_NPATHS; p++) {
			if (!(o->call.paths & VK_PATH_BIT(p)))
				continue;
			vk_bench_run(b, &cases[i], p, &r);
			print_row(row++, &r);
			/* Now, so that a crash in the next row is told as its. */
			fflush(stdout);
		}
		/* Between APIs, so that the reference spans the whole run. */
		print_ref(b);
	}
	printf("end\n");
	if (fflush(stdout)) {
		fprintf(stderr, "%s: cannot write to the parent: %s\n", cmd, strerror(errno));
		return VK_EXIT_USAGE;
	}
	return VK_EXIT_OK;
}

/* --- the parent --- */

struct worker_args {
	char *argv[MAX_ARGS];
	char timer[64], seconds[32], samples[24], processes[24], cpu[24], paths[40];
};

static void paths_list(char *buf, size_t len, unsigned mask)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int p = 0; p < VK_NPATHS; p++) {
		if (mask & VK_PATH_BIT(p))
			at += snprintf(buf + at, len - at, "%s%s", at ? "," : "", vk_path_name(p));
	}
}

/* The parent's own options, less its output, with each worker's share of the budget. */
static void worker_argv(struct worker_args *w, const struct vk_bench_cmd_opts *o,
			const struct vk_timer *t, const struct vk_bench_rows *rows)
{
	int n = 0;

	snprintf(w->timer, sizeof(w->timer), "%a:%a", t->ns_per_tick, t->overhead);
	snprintf(w->seconds, sizeof(w->seconds), "%.9g", o->m.seconds / o->processes);
	snprintf(w->samples, sizeof(w->samples), "%llu", o->m.samples);
	snprintf(w->processes, sizeof(w->processes), "%d", o->processes);
	snprintf(w->cpu, sizeof(w->cpu), "%ld", o->m.cpu);
	paths_list(w->paths, sizeof(w->paths), o->call.paths);
	w->argv[n++] = "vdsokit";
	w->argv[n++] = "bench";
	w->argv[n++] = "--worker";
	w->argv[n++] = w->timer;
	w->argv[n++] = "-d";
	w->argv[n++] = w->seconds;
	w->argv[n++] = "-n";
	w->argv[n++] = w->samples;
	w->argv[n++] = "--processes";	/* for the share of --cold's samples */
	w->argv[n++] = w->processes;
	w->argv[n++] = "--cpu";
	w->argv[n++] = w->cpu;
	w->argv[n++] = "--paths";
	w->argv[n++] = w->paths;
	if (o->call.impl) {
		w->argv[n++] = "--impl";
		w->argv[n++] = (char *)o->call.impl;
	}
	if (o->cold)
		w->argv[n++] = "--cold";
	w->argv[n++] = "--";
	for (size_t i = 0; i < rows->ncases; i++)
		w->argv[n++] = (char *)rows->cases[i].api;
	w->argv[n] = NULL;
}

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

static void add_skip(struct vk_bench_result *r, const char *why)
{
	if (r->skipped)
		return;
	snprintf(r->why, sizeof(r->why), "%.*s", (int)strcspn(why, "\n"), why);
	r->skipped = r->why;
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

/* How a worker's output ended. */
enum { WORKER_OK, WORKER_BAD, WORKER_SHORT, WORKER_SILENT };

/*
 * A worker is killed when it has sent nothing for this long: far more
 * than a row's share of the budget, as a call that never returns would.
 */
static double silence(const struct vk_bench_cmd_opts *o)
{
	return 30 + 4 * o->m.seconds / o->processes;
}

/*
 * Worker k's lines (buf, NUL-terminated) into rows; its reference is the
 * median of its own. *at is the last row it sent, to name the one it died
 * in.
 */
static int read_worker(char *buf, struct vk_bench_rows *rows, int k, long *at)
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
		else if (!strncmp(line, "ref ", 4) && nref < sizeof(ref[0]) / sizeof(ref[0][0]))
			bad = add_ref(line + 4, ref, &nref);
		else if (!strncmp(line, "row ", 4) && (r = row_of(rows, line + 4, &rest, at)))
			bad = add_samples(r, k, rest);
		else if (!strncmp(line, "skip ", 5) && (r = row_of(rows, line + 5, &rest, at)))
			add_skip(r, rest);
		else
			bad = 1;
		nl[1] = next;
	}
	for (int kind = 0; kind < VK_REF_KINDS; kind++)
		rows->ref[k].ns[kind] = nref ? vk_median(ref[kind], nref) : NAN;
	return bad ? WORKER_BAD : done ? WORKER_OK : WORKER_SHORT;
}

/*
 * A worker's output until it closes it, NUL-terminated in *buf; 1 if it
 * was silent for longer than limit seconds first (a call that never
 * returns), -1 if it could not be kept.
 */
static int slurp(int fd, double limit, char **buf)
{
	size_t len = 0, cap = 4096;
	char *p = malloc(cap);
	int r;

	*buf = p;
	if (!p)
		return -1;
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n;

		r = poll(&pfd, 1, (int)(limit * 1000));
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0)
			break;
		if (cap - len < 2048) {
			p = realloc(*buf, cap *= 2);
			if (!p)
				return -1;
			*buf = p;
		}
		n = read(fd, p + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	p[len] = '\0';
	return r == 0;
}

static void say_death(const char *cmd, const struct vk_bench_cmd_opts *o,
		      const struct vk_bench_rows *rows, int k, int ws, long at, int why)
{
	const struct vk_bench_result *r = at + 1 < (long)rows->n ? &rows->r[at + 1] : NULL;

	fprintf(stderr, "%s: worker process %d of %d ", cmd, k + 1, o->processes);
	if (why == WORKER_SILENT)
		fprintf(stderr, "sent nothing for %g s and was killed", silence(o));
	else if (WIFSIGNALED(ws))
		fprintf(stderr, "was killed by signal %d (%s)", WTERMSIG(ws), strsignal(WTERMSIG(ws)));
	else if (WIFEXITED(ws) && WEXITSTATUS(ws))
		fprintf(stderr, "exited with status %d", WEXITSTATUS(ws));
	else if (why == WORKER_SHORT)
		fprintf(stderr, "exited with status 0 before it sent every row");
	else
		fprintf(stderr, "sent what a worker does not");
	if (r && r->api[0])
		fprintf(stderr, " while measuring %s on %s", r->api, vk_path_name(r->path));
	if (r && r->api[0] && r->path == VK_PATH_IMPL)
		fprintf(stderr, " (%s)", o->call.impl);
	fputc('\n', stderr);
}

static int run_worker(const char *cmd, const struct vk_bench_cmd_opts *o,
		      struct worker_args *w, struct vk_bench_rows *rows, int k)
{
	int fd[2], ws = 0, got = -1, why = WORKER_BAD;
	long at = -1;
	char *buf = NULL;
	pid_t pid;

	fflush(NULL);
	if (pipe(fd)) {
		fprintf(stderr, "%s: cannot start a worker process: %s\n", cmd, strerror(errno));
		return VK_EXIT_FAIL;
	}
	pid = vk_fork();
	if (pid == 0) {
		close(fd[0]);
		if (dup2(fd[1], STDOUT_FILENO) >= 0)
			execv("/proc/self/exe", w->argv);
		fprintf(stderr, "%s: cannot start a worker process: /proc/self/exe: %s\n", cmd,
			strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	if (pid > 0)
		got = slurp(fd[0], silence(o), &buf);
	close(fd[0]);
	if (got >= 0)
		why = read_worker(buf, rows, k, &at);
	if (got == 1) {
		kill(pid, SIGKILL);
		why = WORKER_SILENT;
	}
	free(buf);
	if (pid < 0 || vk_waitpid(pid, &ws, 0) != pid) {
		fprintf(stderr, "%s: cannot start a worker process: %s\n", cmd, strerror(errno));
		return VK_EXIT_FAIL;
	}
	if (why == WORKER_OK && WIFEXITED(ws) && !WEXITSTATUS(ws))
		return VK_EXIT_OK;
	if (!(WIFEXITED(ws) && WEXITSTATUS(ws) == 127))
		say_death(cmd, o, rows, k, ws, at, why);
	return VK_EXIT_FAIL;
}

static void progress(const struct vk_bench_cmd_opts *o, struct vk_step *step, int k)
{
	if (step && step->progress)
		step->progress(step->ctx, (double)k / o->processes);
	else if (isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[K[process %d/%d]", k + 1, o->processes);
}

int vk_bench_workers(const char *cmd, const struct vk_bench_cmd_opts *o,
		     const struct vk_timer *t, struct vk_bench_rows *rows, struct vk_step *step)
{
	struct worker_args w;
	int status = VK_EXIT_OK;

	worker_argv(&w, o, t, rows);
	for (int k = 0; k < o->processes && !status; k++) {
		progress(o, step, k);
		status = run_worker(cmd, o, &w, rows, k);
		rows->nref = k + 1;
	}
	if (isatty(STDERR_FILENO) && !(step && step->progress))
		fprintf(stderr, "\r\033[K");
	for (size_t i = 0; i < rows->n && !status; i++) {
		if (!rows->r[i].skipped)
			vk_bench_summarize_groups(&rows->r[i]);
	}
	return status;
}
