// SPDX-License-Identifier: MIT
/*
 * vdsokit bench: the command line of core/benchrun, which measures each
 * API's cost per path in fresh worker processes (each one "vdsokit bench
 * --worker ..."); its JSON is what compare reads.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/benchrun/benchrun.h"
#include "report/bench.h"
#include "commands/commands.h"

/* bench's command line: the run it asks for, and where it goes. */
struct vk_bench_cmd_opts {
	struct vk_bench_plan p;
	const char *outdir;	/* --output */
	const char *worker;	/* --worker: the parent's timer, "NS_PER_TICK:OVERHEAD" */
	struct vk_call_opts call;
};

static const char head[] =
	"Usage: vdsokit bench [OPTIONS] [API...]\n\n"
	"Measure ns per call of each API on each path in worker processes, each a\n"
	"fresh exec run in turn: the median of the processes' medians, the minimum,\n"
	"and the bootstrap 95% CI and CV of the process medians. Each process also\n"
	"times three reference loops no change to the vDSO can move (register\n"
	"multiply-adds, L1 loads, getppid), for compare to tell when the machine's\n"
	"own speed moved. How it measures: 'man vdsokit'.\n"
	"With no API, every API of the table; an API is a name from 'vdsokit\n"
	"list-apis', clock-gettime-id:N or clock-getres-id:N for any clock id, or\n"
	"a function name (clock_gettime) for all its clocks.\n\n";

static const char tail[] =
	"\n"
	"Exit status: 0 measured, 1 a call failed otherwise than the syscall (its\n"
	"row names it, the errno and how often, with no figure) or a worker died\n"
	"(the call crashed it), exited before its last row or sent nothing for 30 s\n"
	"plus four times a row's share of the budget (the call hung: it is killed),\n"
	"2 usage error, a bad --impl (see verify) or an --output file not written,\n"
	"3 vdsokit's own error (no worker, no pinning), 4 nothing was measured.\n";

static enum vk_opt_result parse_opts(int argc, char **argv, struct vk_bench_cmd_opts *o)
{
	unsigned long long processes = o->p.processes;
	const char *thread_cpus = NULL;
	const struct vk_option opt[] = {
		VK_BENCH_ROWS(&o->p.m, NULL, "budget per API and path, shared by the processes\n"
			      "(default 0.08)",
			      "samples per API and path in each process\n"
			      "(default 5, 2-512)",
			      "pin to CPU N (default: the CPU it starts on)"),
		VK_OPT('P', "processes", VK_OPT_COUNT, "N",
		  "worker processes, each a fresh exec run in turn\n"
		  "(default 10, 1-64; N * samples at most 512)", &processes, .lo = 1,
		  .hi = VK_BENCH_MAX_GROUPS),
		VK_OPT(0, "threads", VK_OPT_COUNT, "N",
		  "also N threads calling at once, each pinned to its CPU:\n"
		  "calls/s in all, ns per call per thread, scaling", &o->p.threads,
		  .lo = 1, .hi = VK_BENCH_MAX_THREADS),
		VK_OPT(0, "length", VK_OPT_COUNT, "N",
		  "getrandom's bytes a call (default 16, 1-1048576)",
		  &o->p.length, .lo = 1, .hi = VK_BENCH_MAX_RANDOM_LEN),
		VK_OPT(0, "cold", VK_OPT_FLAG, NULL,
		  "time single calls after disturbing caches and TLB;\n"
		  "report median, p90 and p99", &o->p.cold),
		VK_OPT_PATHS_ROW(&o->call, "vdso,libc,syscall,impl,vsyscall (default vdso,libc,\n"
				 "syscall, and impl with --impl)"),
		VK_OPT_IMPL_ROW(&o->call, "also measure the __vdso_* functions LIB.so exports"),
		VK_OPT_FORMAT_ROWS(&o->call.format, VK_DOC_BENCH, ""),
		VK_OPT('o', "output", VK_OPT_CALL, "DIR",
		  "also write DIR/report.txt, .json, .ktap and .html\n"
		  "(self-contained: inline SVG, no script),\n"
		  "all replaced at once or none", &o->outdir, .call = vk_output_dir),
		/* A worker process's: the parent's timer. */
		VK_OPT(0, "worker", VK_OPT_STRING, "TIMER", NULL, &o->worker),
		/* A worker process's: --threads' CPUs. */
		VK_OPT(0, "thread-cpus", VK_OPT_STRING, "LIST", NULL, &thread_cpus),
		VK_OPT_HELP_ROW,
	};
	const struct vk_options opts = VK_OPTIONS(head, tail, opt);
	enum vk_opt_result r = vk_options_parse(&opts, argc, argv);

	o->p.processes = processes;
	if (r == VK_OPT_OK && o->p.processes * o->p.m.samples > VK_BENCH_MAX_SAMPLES)
		return vk_opt_error("--processes times --samples is %llu, at most %d",
				    o->p.processes * o->p.m.samples, VK_BENCH_MAX_SAMPLES);
	if (r == VK_OPT_OK && o->p.threads && o->p.cold)
		return vk_opt_error("--threads measures warm calls: not with --cold");
	if (r == VK_OPT_OK && o->worker && o->p.threads &&
	    (!thread_cpus || vk_bench_parse_thread_cpus(&o->p, thread_cpus)))
		return vk_opt_error("--thread-cpus is bench's own, for its worker processes");
	return r;
}

static const struct vk_output files[] = {
	{ "report.txt", VK_FMT_TEXT }, { "report.json", VK_FMT_JSON },
	{ "report.ktap", VK_FMT_KTAP }, { "report.html", VK_FMT_HTML },
};

static int write_files(const char *dir, const struct vk_doc *doc)
{
	static struct vk_files s;

	return vk_output_write(&s, dir, files, ARRAY_SIZE(files), doc);
}

/* Where a command's status comes from, by how its measurement ended. */
static const int exit_of[] = {
	[VK_MEASURED] = VK_EXIT_OK, [VK_MEASURE_FAILED] = VK_EXIT_FAIL,
	[VK_MEASURE_NO_WORKER] = VK_EXIT_ERROR, [VK_MEASURE_NOTHING] = VK_EXIT_SKIP,
	[VK_MEASURE_REFUSED] = VK_EXIT_USAGE, [VK_MEASURE_NO_PIN] = VK_EXIT_ERROR,
	[VK_MEASURE_NO_TIMER] = VK_EXIT_SKIP, [VK_MEASURE_NO_ROWS] = VK_EXIT_SKIP,
};

/* The worker processes, one after the other: all's progress line, or else a line on a terminal. */
static void progress(void *ctx, size_t k, size_t n, const char *what)
{
	static int own;	/* whether the line on the terminal is bench's */

	(void)ctx;
	(void)what;
	if (k == n) {
		if (own)
			fprintf(stderr, "\r\033[K");
		own = 0;
	} else if (!vk_run_progress((double)k / n) && isatty(STDERR_FILENO)) {
		fprintf(stderr, "\r\033[K[process %zu/%zu]", k + 1, n);
		own = 1;
	}
}

static void note(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "%s: %s\n", vk_progname, line);
}

/* Each worker is "vdsokit bench --worker TIMER ...", which cmd_bench runs. */
static char *const worker_argv[] = { "vdsokit", "bench", "--worker", NULL };

static int run(struct vk_bench_cmd_opts *o, struct vk_bench_case *cases, size_t ncases)
{
	const struct vk_bench_say say = { progress, note, NULL };
	struct vk_bench_run_doc d;
	struct vk_doc doc = { .command = "bench", .kind = VK_DOC_BENCH, .bench = &d.rep };
	char err[VK_MEASURE_ERR_LEN];
	int status;
	enum vk_measure_end end;

	o->p.paths = o->call.paths;
	o->p.impl = o->call.impl;
	end = vk_bench_measure(&o->p, worker_argv, cases, ncases, &say, &d, err, sizeof(err));
	status = exit_of[end];
	if (end >= VK_MEASURE_REFUSED) {
		fprintf(stderr, "%s: %s\n", vk_progname, err);
		free(d.res);
		return status;
	}
	d.rep.version = vk_version;
	vk_run_render(o->call.format, &doc);
	if (o->outdir && write_files(o->outdir, &doc))
		status = VK_EXIT_USAGE;
	else
		vk_run_keep_bench(&d.rep, d.res);
	/* Unless `all` keeps the rows. */
	if (!vk_all || vk_all->kept.bench != d.res)
		free(d.res);
	return status;
}

/* A worker: the parent's CPU and timer, its share of the budget. */
static int run_worker(struct vk_bench_cmd_opts *o, struct vk_bench_case *cases, size_t ncases)
{
	struct vk_timer timer;
	char err[VK_MEASURE_ERR_LEN];
	enum vk_measure_end end;

	o->p.paths = o->call.paths;
	o->p.impl = o->call.impl;
	if (vk_bench_worker_setup(&o->p, o->worker, &timer))
		return vk_usage_error("--worker is bench's own, for its worker processes");
	end = vk_bench_work(&o->p, &timer, cases, ncases, stdout, err, sizeof(err));
	if (end)
		fprintf(stderr, "%s: %s\n", vk_progname, err);
	return exit_of[end];
}

#define DEFAULT_OPTS                                                            \
	{ .p = { .m = { .seconds = 0.08, .samples = 5, .cpu = -1 },             \
		 .processes = VK_BENCH_DEFAULT_PROCESSES, .length = VK_BENCH_RANDOM_LEN } }
#define DEFAULT_PATHS                                                           \
	(VK_PATH_BIT(VK_PATH_VDSO) | VK_PATH_BIT(VK_PATH_LIBC) | VK_PATH_BIT(VK_PATH_SYSCALL))

int cmd_bench(int argc, char **argv)
{
	struct vk_bench_cmd_opts o = DEFAULT_OPTS;
	struct vk_bench_case cases[VK_BENCH_MAX_CASES];
	size_t n;
	const char *bad;
	enum vk_opt_result r = parse_opts(argc, argv, &o);

	if (r == VK_OPT_OK)
		r = vk_call_paths(&o.call, DEFAULT_PATHS);
	if (r != VK_OPT_OK)
		return vk_opt_exit(r);
	if (vk_bench_cases(argc - optind, argv + optind, cases, &n, &bad))
		return vk_usage_error("unknown API '%s' (see 'vdsokit list-apis')", bad);
	if (o.worker)
		return run_worker(&o, cases, n);
	return run(&o, cases, n);
}
