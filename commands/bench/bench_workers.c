// SPDX-License-Identifier: MIT
/*
 * bench's worker processes. Each is a fresh exec of this binary: a new
 * address-space layout, new pages for its code and data, a new load of
 * --impl. What differs from process to process for those reasons differs
 * from boot to boot too, so a figure is trusted only as far as it holds
 * across processes. Workers run one after the other, never together: they
 * would share the CPU they measure on. What a worker prints, and how the
 * parent pools it, is in core/bench_pool.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base/safe.h"
#include "commands/bench_cmd.h"

#define MAX_ARGS (28 + VK_BENCH_MAX_CASES)

/* --- the worker --- */

int vk_bench_worker_timer(const char *arg, struct vk_timer *t)
{
	char *end;

	t->name = vk_timer_choose();
	t->ns_per_tick = strtod(arg, &end);
	if (*end != ':' || !(t->ns_per_tick > 0))
		return -1;
	t->overhead = strtod(end + 1, &end);
	return *end || !(t->overhead >= 0) ? -1 : 0;
}

static void print_row(size_t i, const struct vk_bench_result *r)
{
	if (r->failed) {
		printf("fail %zu %llu %llu %d\n", i, r->failed, r->failed_of, r->err);
		return;
	}
	if (r->skipped) {
		printf("skip %zu %s\n", i, r->skipped);
		return;
	}
	printf("row %zu %lu %llu %ld %d", i, r->batch, r->calls, r->involuntary_switches, r->n);
	for (int k = 0; k < r->n; k++)
		printf(" %a", r->samples[k]);
	putchar('\n');
}

/* The row's throughput at o->threads and at one thread, or why not in r. */
static void print_threads(size_t i, const struct vk_bench_cmd_opts *o, const struct vk_bench *b,
			  const struct vk_bench_case *c, enum vk_path p, struct vk_bench_result *r)
{
	double all, one, at_once, one_at_once;
	int n = o->threads;

	if (vk_bench_threads(b, c, p, n, o->thread_cpu, r->batch, &all, &at_once, r))
		return;
	if (n == 1) {
		one = all;
	} else {
		if (vk_bench_threads(b, c, p, 1, o->thread_cpu, r->batch, &one, &one_at_once, r))
			return;
		/* The one thread's rate is the scaling's base: it must have held its CPU too. */
		if (one_at_once < at_once)
			at_once = one_at_once;
	}
	printf("thr %zu %a %a %a\n", i, all, one, at_once);
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

int vk_bench_worker(const struct vk_bench_cmd_opts *o, struct vk_bench *b,
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
			if (o->threads && !r.skipped)
				print_threads(row, o, b, &cases[i], p, &r);
			print_row(row++, &r);
			/* Now, so that a crash in the next row is told as its. */
			fflush(stdout);
		}
		/* Between APIs, so that the reference spans the whole run. */
		print_ref(b);
	}
	printf("end\n");
	if (fflush(stdout)) {
		fprintf(stderr, "%s: cannot write to the parent: %s\n", vk_progname, strerror(errno));
		return VK_EXIT_USAGE;
	}
	return VK_EXIT_OK;
}

/* --- the parent --- */

struct worker_args {
	char *argv[MAX_ARGS];
	char timer[64], seconds[32], samples[24], processes[24], cpu[24], paths[40];
	char threads[24], thread_cpus[VK_BENCH_MAX_THREADS * 6], length[24];
};

void vk_bench_thread_cpus(struct vk_bench_cmd_opts *o, const cpu_set_t *allowed)
{
	int cpus[CPU_SETSIZE], n = 0;

	cpus[n++] = o->m.cpu;
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (CPU_ISSET(c, allowed) && c != o->m.cpu)
			cpus[n++] = c;
	}
	o->ncpus = n;
	for (unsigned long long i = 0; i < o->threads; i++)
		o->thread_cpu[i] = cpus[i % n];
}

int vk_bench_parse_thread_cpus(struct vk_bench_cmd_opts *o, const char *arg)
{
	unsigned long long n = 0;
	char *end;

	for (const char *s = arg; *s && n < o->threads; s = *end ? end + 1 : end) {
		long c = strtol(s, &end, 10);

		if (end == s || c < 0 || c >= CPU_SETSIZE || (*end && *end != ','))
			return -1;
		o->thread_cpu[n++] = c;
	}
	return n == o->threads ? 0 : -1;
}

static void thread_list(char *buf, size_t len, const struct vk_bench_cmd_opts *o)
{
	size_t at = 0;

	for (unsigned long long i = 0; i < o->threads; i++)
		at += snprintf(buf + at, len - at, "%s%d", i ? "," : "", o->thread_cpu[i]);
}

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
	snprintf(w->length, sizeof(w->length), "%llu", o->length);
	w->argv[n++] = "--length";
	w->argv[n++] = w->length;
	if (o->cold)
		w->argv[n++] = "--cold";
	if (o->threads) {
		snprintf(w->threads, sizeof(w->threads), "%llu", o->threads);
		thread_list(w->thread_cpus, sizeof(w->thread_cpus), o);
		w->argv[n++] = "--threads";
		w->argv[n++] = w->threads;
		w->argv[n++] = "--thread-cpus";
		w->argv[n++] = w->thread_cpus;
	}
	w->argv[n++] = "--";
	for (size_t i = 0; i < rows->ncases; i++)
		w->argv[n++] = (char *)rows->cases[i].api;
	w->argv[n] = NULL;
}

/*
 * A worker is killed when it has sent nothing for this long: far more
 * than a row's share of the budget, as a call that never returns would.
 */
static double silence(const struct vk_bench_cmd_opts *o)
{
	return 30 + 4 * o->m.seconds / o->processes;
}

/* How worker k ended, in words: "worker process 1 of 10 was killed by ...". */
static void death(char *buf, size_t len, const struct vk_bench_cmd_opts *o, int k,
		  const struct vk_worker *w)
{
	int ws = w->wstatus, at = snprintf(buf, len, "worker process %d of %d ", k + 1, o->processes);

	if (w->end == VK_WORKER_SILENT)
		snprintf(buf + at, len - at, "sent nothing for %g s and was killed", silence(o));
	else if (WIFSIGNALED(ws))
		snprintf(buf + at, len - at, "was killed by signal %d (%s)", WTERMSIG(ws),
			 strsignal(WTERMSIG(ws)));
	else if (WIFEXITED(ws) && WEXITSTATUS(ws))
		snprintf(buf + at, len - at, "exited with status %d", WEXITSTATUS(ws));
	else if (w->end == VK_WORKER_SHORT)
		snprintf(buf + at, len - at, "exited with status 0 before it sent every row");
	else
		snprintf(buf + at, len - at, "sent what a worker does not");
}

/*
 * Said on stderr, and kept in the row it died in, whose figure it is
 * not: the document holds the crash too.
 */
static void say_death(const struct vk_bench_cmd_opts *o,
		      struct vk_bench_rows *rows, int k, const struct vk_worker *w)
{
	struct vk_bench_result *r = w->at + 1 < (long)rows->n ? &rows->r[w->at + 1] : NULL;
	char what[sizeof(r->why)];

	death(what, sizeof(what), o, k, w);
	fprintf(stderr, "%s: %s", vk_progname, what);
	if (r && r->api[0])
		fprintf(stderr, " while measuring %s on %s", r->api, vk_path_name(r->path));
	if (r && r->api[0] && r->path == VK_PATH_IMPL)
		fprintf(stderr, " (%s)", vk_safe(o->call.impl));
	fputc('\n', stderr);
	if (!r)
		return;
	r->crashed = 1;
	snprintf(r->why, sizeof(r->why), "%s", what);
	r->skipped = r->why;
}

static int run_worker(const struct vk_bench_cmd_opts *o,
		      struct worker_args *w, struct vk_bench_rows *rows, int k)
{
	static const char self[] = "/proc/self/exe";
	struct vk_worker end;

	fflush(NULL);
	if (!vk_bench_pool_run(self, w->argv, silence(o), rows, k, &end))
		return VK_EXIT_OK;
	/* No worker at all is vdsokit's own error, not the calls' failure. */
	if (end.end == VK_WORKER_NO_START)
		fprintf(stderr, "%s: vdsokit's own error: cannot start a worker process: %s\n", vk_progname,
			strerror(end.err));
	else if (end.end == VK_WORKER_NO_EXEC)
		fprintf(stderr, "%s: vdsokit's own error: cannot start a worker process: %s: %s\n",
			vk_progname, self, strerror(end.err));
	else
		say_death(o, rows, k, &end);
	return end.end == VK_WORKER_NO_START || end.end == VK_WORKER_NO_EXEC ? VK_EXIT_ERROR :
									       VK_EXIT_FAIL;
}

/* all's progress line, or else on a terminal bench's own; whether its own. */
static int progress(const struct vk_bench_cmd_opts *o, int k)
{
	if (vk_run_progress((double)k / o->processes) || !isatty(STDERR_FILENO))
		return 0;
	fprintf(stderr, "\r\033[K[process %d/%d]", k + 1, o->processes);
	return 1;
}

int vk_bench_workers(const struct vk_bench_cmd_opts *o,
		     const struct vk_timer *t, struct vk_bench_rows *rows)
{
	struct worker_args w;
	int status = VK_EXIT_OK, own = 0;

	worker_argv(&w, o, t, rows);
	for (int k = 0; k < o->processes && !status; k++) {
		own = progress(o, k);
		status = run_worker(o, &w, rows, k);
		rows->nref = k + 1;
	}
	if (own)
		fprintf(stderr, "\r\033[K");
	/* After a death too: what the workers measured is reported beside it. */
	for (size_t i = 0; i < rows->n; i++) {
		if (!rows->r[i].skipped && !rows->r[i].ngroups) {
			rows->r[i].own_error = status == VK_EXIT_ERROR;
			rows->r[i].skipped = rows->r[i].own_error ?
				"not measured: vdsokit could not start a worker process for it" :
				"not measured: a worker process died before it";
		}
		if (rows->r[i].skipped)
			continue;
		vk_bench_summarize_groups(&rows->r[i]);
		rows->r[i].threads = o->threads;
		vk_bench_summarize_threads(&rows->r[i]);
	}
	return status;
}
