// SPDX-License-Identifier: MIT
/*
 * bench's worker processes. Each is a fresh exec of this binary: a new
 * address-space layout, new pages for its code and data, a new load of
 * --impl. What differs from process to process for those reasons differs
 * from boot to boot too, so a figure is trusted only as far as it holds
 * across processes. Workers run one after the other, never together: they
 * would share the CPU they measure on. What a worker prints, and how the
 * parent pools it, is in core/bench/bench_pool.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base/safe.h"
#include "core/benchrun/workers.h"

#define MAX_ARGS (28 + VK_BENCH_MAX_CASES)

/* --- the worker --- */

/* The parent's timer from --worker's value; -1 if it is not one. */
static int worker_timer(const char *arg, struct vk_timer *t)
{
	char *end;

	t->name = vk_timer_choose();
	t->ns_per_tick = strtod(arg, &end);
	if (*end != ':' || !(t->ns_per_tick > 0))
		return -1;
	t->overhead = strtod(end + 1, &end);
	return *end || !(t->overhead >= 0) ? -1 : 0;
}

int vk_bench_worker_setup(const struct vk_bench_plan *p, const char *arg, struct vk_timer *t)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(p->m.cpu, &set);
	if (worker_timer(arg, t) || p->m.cpu < 0 || sched_setaffinity(0, sizeof(set), &set))
		return -1;
	return 0;
}

static void print_row(FILE *out, size_t i, const struct vk_bench_result *r)
{
	if (r->failed) {
		fprintf(out, "fail %zu %llu %llu %d\n", i, r->failed, r->failed_of, r->err);
		return;
	}
	if (r->skipped) {
		fprintf(out, "skip %zu %s\n", i, r->skipped);
		return;
	}
	fprintf(out, "row %zu %lu %llu %ld %d", i, r->batch, r->calls, r->involuntary_switches,
		r->n);
	for (int k = 0; k < r->n; k++)
		fprintf(out, " %a", r->samples[k]);
	fputc('\n', out);
}

/* The row's throughput at p->threads and at one thread, or why not in r. */
static void print_threads(FILE *out, size_t i, const struct vk_bench_plan *p,
			  const struct vk_bench *b, const struct vk_bench_case *c, enum vk_path path,
			  struct vk_bench_result *r)
{
	double all, one, at_once, one_at_once;
	int n = p->threads;

	if (vk_bench_threads(b, c, path, n, p->thread_cpu, r->batch, &all, &at_once, r))
		return;
	if (n == 1) {
		one = all;
	} else {
		if (vk_bench_threads(b, c, path, 1, p->thread_cpu, r->batch, &one, &one_at_once, r))
			return;
		/* The one thread's rate is the scaling's base: it must have held its CPU too. */
		if (one_at_once < at_once)
			at_once = one_at_once;
	}
	fprintf(out, "thr %zu %a %a %a\n", i, all, one, at_once);
}

static void print_ref(FILE *out, const struct vk_bench *b)
{
	struct vk_bench_ref ref;

	vk_bench_reference(b, &ref);
	fprintf(out, "ref");
	for (int k = 0; k < VK_REF_KINDS; k++)
		fprintf(out, " %a", ref.ns[k]);
	fputc('\n', out);
}

/* 0, or the errno of a write to out that failed. */
static int work(const struct vk_bench_plan *p, struct vk_bench *b,
		const struct vk_bench_case *cases, size_t ncases, FILE *out)
{
	struct vk_bench_result r;
	size_t row = 0;

	print_ref(out, b);
	for (size_t i = 0; i < ncases; i++) {
		for (int path = 0; path < VK_NPATHS; path++) {
			if (!(p->paths & VK_PATH_BIT(path)))
				continue;
			vk_bench_run(b, &cases[i], path, &r);
			if (p->threads && !r.skipped)
				print_threads(out, row, p, b, &cases[i], path, &r);
			print_row(out, row++, &r);
			/* Now, so that a crash in the next row is told as its. */
			fflush(out);
		}
		/* Between APIs, so that the reference spans the whole run. */
		print_ref(out, b);
	}
	fprintf(out, "end\n");
	return fflush(out) ? errno : 0;
}

enum vk_measure_end vk_bench_work(const struct vk_bench_plan *p, const struct vk_timer *timer,
				  struct vk_bench_case *cases, size_t ncases, FILE *out,
				  char *err, size_t len)
{
	/* The processes' cold samples must fit in the parent's row together. */
	struct vk_bench b = { .timer = timer, .seconds = p->m.seconds,
			      .samples = p->m.samples, .cold = p->cold,
			      .max_cold = VK_BENCH_MAX_SAMPLES / p->processes };
	struct vk_callset cs;
	struct vk_image im;
	char why[256];
	int status, have_vdso = vk_image_open_live(&im) == 0;

	if (vk_callset_init(&cs, have_vdso ? &im : NULL, p->impl, why, sizeof(why))) {
		snprintf(err, len, "%s", vk_safe(why));
		return VK_MEASURE_REFUSED;
	}
	/* A worker is bench's child: the library is loaded here, not in bench. */
	vk_callset_load(&cs);
	if (vk_bench_init(&b)) {
		snprintf(err, len, "out of memory");
		return VK_MEASURE_REFUSED;
	}
	b.cs = &cs;
	for (size_t i = 0; i < ncases; i++)
		cases[i].len = p->length;
	status = work(p, &b, cases, ncases, out);
	vk_bench_free(&b);
	if (status)
		snprintf(err, len, "cannot write to the parent: %s", strerror(status));
	return status ? VK_MEASURE_REFUSED : VK_MEASURED;
}

/* --- the parent --- */

struct worker_args {
	char *argv[MAX_ARGS];
	char timer[64], seconds[32], samples[24], processes[24], cpu[24], paths[40];
	char threads[24], thread_cpus[VK_BENCH_MAX_THREADS * 6], length[24];
};

void vk_bench_thread_cpus(struct vk_bench_plan *p, const cpu_set_t *allowed)
{
	int cpus[CPU_SETSIZE], n = 0;

	cpus[n++] = p->m.cpu;
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (CPU_ISSET(c, allowed) && c != p->m.cpu)
			cpus[n++] = c;
	}
	p->ncpus = n;
	for (unsigned long long i = 0; i < p->threads; i++)
		p->thread_cpu[i] = cpus[i % n];
}

int vk_bench_parse_thread_cpus(struct vk_bench_plan *p, const char *arg)
{
	unsigned long long n = 0;
	char *end;

	for (const char *s = arg; *s && n < p->threads; s = *end ? end + 1 : end) {
		long c = strtol(s, &end, 10);

		if (end == s || c < 0 || c >= CPU_SETSIZE || (*end && *end != ','))
			return -1;
		p->thread_cpu[n++] = c;
	}
	return n == p->threads ? 0 : -1;
}

static void thread_list(char *buf, size_t len, const struct vk_bench_plan *p)
{
	size_t at = 0;

	for (unsigned long long i = 0; i < p->threads; i++)
		at += snprintf(buf + at, len - at, "%s%d", i ? "," : "", p->thread_cpu[i]);
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

/*
 * argv0, then the parent's own options, less its output, with each
 * worker's share of the budget: as bench reads them.
 */
static void worker_argv(struct worker_args *w, char *const *argv0, const struct vk_bench_plan *p,
			const struct vk_timer *t, const struct vk_bench_rows *rows)
{
	int n = 0;

	snprintf(w->timer, sizeof(w->timer), "%a:%a", t->ns_per_tick, t->overhead);
	snprintf(w->seconds, sizeof(w->seconds), "%.9g", p->m.seconds / p->processes);
	snprintf(w->samples, sizeof(w->samples), "%llu", p->m.samples);
	snprintf(w->processes, sizeof(w->processes), "%d", p->processes);
	snprintf(w->cpu, sizeof(w->cpu), "%ld", p->m.cpu);
	paths_list(w->paths, sizeof(w->paths), p->paths);
	while (*argv0)
		w->argv[n++] = *argv0++;
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
	if (p->impl) {
		w->argv[n++] = "--impl";
		w->argv[n++] = (char *)p->impl;
	}
	snprintf(w->length, sizeof(w->length), "%llu", p->length);
	w->argv[n++] = "--length";
	w->argv[n++] = w->length;
	if (p->cold)
		w->argv[n++] = "--cold";
	if (p->threads) {
		snprintf(w->threads, sizeof(w->threads), "%llu", p->threads);
		thread_list(w->thread_cpus, sizeof(w->thread_cpus), p);
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
static double silence(const struct vk_bench_plan *p)
{
	return 30 + 4 * p->m.seconds / p->processes;
}

/* How worker k ended, in words: "worker process 1 of 10 was killed by ...". */
static void death(char *buf, size_t len, const struct vk_bench_plan *p, int k,
		  const struct vk_worker *w)
{
	int ws = w->wstatus, at = snprintf(buf, len, "worker process %d of %d ", k + 1, p->processes);

	if (w->end == VK_WORKER_SILENT)
		snprintf(buf + at, len - at, "sent nothing for %g s and was killed", silence(p));
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

static void note(const struct vk_bench_say *say, const char *line)
{
	if (say->note)
		say->note(say->ctx, line);
}

/*
 * Said to say, and kept in the row it died in, whose figure it is not:
 * the document holds the crash too.
 */
static void say_death(const struct vk_bench_plan *p, struct vk_bench_rows *rows, int k,
		      const struct vk_worker *w, const struct vk_bench_say *say)
{
	struct vk_bench_result *r = w->at + 1 < (long)rows->n ? &rows->r[w->at + 1] : NULL;
	char what[sizeof(r->why)], line[VK_MEASURE_ERR_LEN];
	int at;

	death(what, sizeof(what), p, k, w);
	at = snprintf(line, sizeof(line), "%s", what);
	if (r && r->api[0])
		at += snprintf(line + at, sizeof(line) - at, " while measuring %s on %s", r->api,
			       vk_path_name(r->path));
	if (r && r->api[0] && r->path == VK_PATH_IMPL)
		snprintf(line + at, sizeof(line) - at, " (%s)", vk_safe(p->impl));
	note(say, line);
	if (!r)
		return;
	r->crashed = 1;
	snprintf(r->why, sizeof(r->why), "%s", what);
	r->skipped = r->why;
}

static enum vk_measure_end run_worker(const struct vk_bench_plan *p, struct worker_args *w,
				      struct vk_bench_rows *rows, int k,
				      const struct vk_bench_say *say)
{
	static const char self[] = "/proc/self/exe";
	struct vk_worker end;
	char line[300];

	fflush(NULL);
	if (!vk_bench_pool_run(self, w->argv, silence(p), rows, k, &end))
		return VK_MEASURED;
	/* No worker at all is vdsokit's own error, not the calls' failure. */
	if (end.end == VK_WORKER_NO_START)
		snprintf(line, sizeof(line), "vdsokit's own error: cannot start a worker process: %s",
			 strerror(end.err));
	else if (end.end == VK_WORKER_NO_EXEC)
		snprintf(line, sizeof(line),
			 "vdsokit's own error: cannot start a worker process: %s: %s", self,
			 strerror(end.err));
	else
		say_death(p, rows, k, &end, say);
	if (end.end != VK_WORKER_NO_START && end.end != VK_WORKER_NO_EXEC)
		return VK_MEASURE_FAILED;
	note(say, line);
	return VK_MEASURE_NO_WORKER;
}

enum vk_measure_end vk_bench_workers(const struct vk_bench_plan *p, char *const *argv0,
				     const struct vk_timer *t, struct vk_bench_rows *rows,
				     const struct vk_bench_say *say)
{
	struct worker_args w;
	enum vk_measure_end status = VK_MEASURED;

	worker_argv(&w, argv0, p, t, rows);
	for (int k = 0; k < p->processes && !status; k++) {
		if (say->progress)
			say->progress(say->ctx, k, p->processes, NULL);
		status = run_worker(p, &w, rows, k, say);
		rows->nref = k + 1;
	}
	if (say->progress)
		say->progress(say->ctx, p->processes, p->processes, NULL);
	/* After a death too: what the workers measured is reported beside it. */
	for (size_t i = 0; i < rows->n; i++) {
		if (!rows->r[i].skipped && !rows->r[i].ngroups) {
			rows->r[i].own_error = status == VK_MEASURE_NO_WORKER;
			rows->r[i].skipped = rows->r[i].own_error ?
				"not measured: vdsokit could not start a worker process for it" :
				"not measured: a worker process died before it";
		}
		if (rows->r[i].skipped)
			continue;
		vk_bench_summarize_groups(&rows->r[i]);
		rows->r[i].threads = p->threads;
		vk_bench_summarize_threads(&rows->r[i]);
	}
	return status;
}
