// SPDX-License-Identifier: MIT
/*
 * vdsokit bench: the command line of core/bench, which measures each API's
 * cost per path in fresh worker processes; its JSON is what compare reads.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/base/safe.h"
#include "core/bench/stats.h"
#include "core/base/sysinfo.h"
#include "core/call/targets.h"
#include "report/bench.h"
#include "commands/bench_cmd.h"

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
	unsigned long long processes = o->processes;
	const char *thread_cpus = NULL;
	const struct vk_option opt[] = {
		VK_BENCH_ROWS(&o->m, NULL, "budget per API and path, shared by the processes\n"
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
		  "calls/s in all, ns per call per thread, scaling", &o->threads,
		  .lo = 1, .hi = VK_BENCH_MAX_THREADS),
		VK_OPT(0, "length", VK_OPT_COUNT, "N",
		  "getrandom's bytes a call (default 16, 1-1048576)",
		  &o->length, .lo = 1, .hi = VK_BENCH_MAX_RANDOM_LEN),
		VK_OPT(0, "cold", VK_OPT_FLAG, NULL,
		  "time single calls after disturbing caches and TLB;\n"
		  "report median, p90 and p99", &o->cold),
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

	o->processes = processes;
	if (r == VK_OPT_OK && o->processes * o->m.samples > VK_BENCH_MAX_SAMPLES)
		return vk_opt_error("--processes times --samples is %llu, at most %d",
				    o->processes * o->m.samples, VK_BENCH_MAX_SAMPLES);
	if (r == VK_OPT_OK && o->threads && o->cold)
		return vk_opt_error("--threads measures warm calls: not with --cold");
	if (r == VK_OPT_OK && o->worker && o->threads &&
	    (!thread_cpus || vk_bench_parse_thread_cpus(o, thread_cpus)))
		return vk_opt_error("--thread-cpus is bench's own, for its worker processes");
	return r;
}

static void add_case(struct vk_bench_case *cs, size_t *n, const char *name, enum vk_func f,
		     int clock)
{
	/* An API named twice, or by its name and its id, is one row. */
	for (size_t i = 0; i < *n; i++) {
		if (cs[i].func == f && cs[i].clock == clock)
			return;
	}
	if (*n >= VK_BENCH_MAX_CASES)
		return;
	snprintf(cs[*n].api, sizeof(cs[*n].api), "%s", name);
	cs[*n].func = f;
	cs[*n].clock = clock;
	(*n)++;
}

/* Every row of the API table for this ABI's class; a path that lacks one
 * is reported as skipped. */
static void add_rows(struct vk_bench_case *cs, size_t *n, int only_func)
{
	for_each_api(a) {
		if (only_func >= 0 && a->func != (enum vk_func)only_func)
			continue;
		if (vk_api_applies(a, sizeof(void *) == 8))
			add_case(cs, n, a->name, a->func, a->clock);
	}
}

static int add_arg(const char *name, struct vk_bench_case *cs, size_t *n)
{
	const struct vk_api *a = vk_api_find(name);
	struct vk_clock c;
	enum vk_func f;

	if (a) {
		add_case(cs, n, a->name, a->func, a->clock);
		return 0;
	}
	for (f = 0; f < VK_NFUNCS; f++) {
		if (!strcmp(name, vk_funcs[f].name)) {
			add_rows(cs, n, f);
			return 0;
		}
	}
	if (vk_clock_api_parse(name, &f, &c) == 0) {
		add_case(cs, n, name, f, c.id);
		return 0;
	}
	return vk_usage_error("unknown API '%s' (see 'vdsokit list-apis')", name);
}

int vk_bench_cases(int argc, char **argv, struct vk_bench_case *cases,
		   size_t *n)
{
	*n = 0;
	for (int i = 0; i < argc; i++) {
		if (add_arg(argv[i], cases, n))
			return VK_EXIT_USAGE;
	}
	if (!argc)
		add_rows(cases, n, -1);
	return VK_EXIT_OK;
}

int vk_bench_setup(long *cpu, struct vk_timer *timer)
{
	cpu_set_t set, mine;

	if (*cpu < 0)
		*cpu = sched_getcpu() < 0 ? 0 : sched_getcpu();
	if (*cpu >= CPU_SETSIZE ||
	    (!sched_getaffinity(0, sizeof(mine), &mine) && !CPU_ISSET(*cpu, &mine))) {
		fprintf(stderr, "%s: cannot run on CPU %ld (not in this process's CPU set)\n", vk_progname,
			*cpu);
		return VK_EXIT_USAGE;
	}
	CPU_ZERO(&set);
	CPU_SET(*cpu, &set);
	/* A sandbox may refuse the call itself: vdsokit's own error, not the CPU's. */
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "%s: vdsokit's own error: cannot pin itself to CPU %ld: "
			"sched_setaffinity() failed: %s\n", vk_progname, *cpu, strerror(errno));
		return VK_EXIT_ERROR;
	}
	if (vk_timer_init(timer)) {
		fprintf(stderr, "%s: the %s counter's rate is not stable; cannot time calls\n", vk_progname,
			timer->name);
		return VK_EXIT_SKIP;
	}
	return VK_EXIT_OK;
}

static size_t short_rows(const struct vk_bench_report *rep)
{
	size_t n = 0;

	for (size_t i = 0; i < rep->n; i++)
		n += !rep->r[i].skipped && rep->r[i].ngroups < VK_VERDICT_GROUPS;
	return n;
}

/* The rows whose --threads' scaling could not be judged, and the least share at once. */
static size_t unjudged_rows(const struct vk_bench_report *rep, double *least)
{
	size_t n = 0;

	*least = 1;
	for (size_t i = 0; i < rep->n; i++) {
		const struct vk_bench_result *r = &rep->r[i];

		if (r->skipped || !r->threads || !isnan(r->scaling))
			continue;
		n++;
		if (r->at_once < *least)
			*least = r->at_once;
	}
	return n;
}

/* The run as a whole: this process and its workers. */
static void switches(long *vol, long *invol)
{
	struct rusage self, children;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &children);
	*vol = self.ru_nvcsw + children.ru_nvcsw;
	*invol = self.ru_nivcsw + children.ru_nivcsw;
}

static void describe_run(struct vk_bench_report *rep, long vol0, long invol0)
{
	struct vk_sysinfo si;
	time_t now = time(NULL);
	double load[1] = { 0 }, least;
	size_t unjudged;

	strftime(rep->time, sizeof(rep->time), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	vk_bench_run_id(rep->run_id, sizeof(rep->run_id));
	uname(&rep->uts);
	if (vk_env_cpuinfo("", "model name", rep->cpu_model, sizeof(rep->cpu_model)))
		snprintf(rep->cpu_model, sizeof(rep->cpu_model), "unknown");
	vk_sysinfo_read(&si);
	snprintf(rep->clocksource, sizeof(rep->clocksource), "%s",
		 si.clocksource[0] ? si.clocksource : "unknown");
	if (getloadavg(load, 1) == 1)
		rep->loadavg = load[0];
	switches(&rep->voluntary, &rep->involuntary);
	rep->voluntary -= vol0;
	rep->involuntary -= invol0;
	/* More than one preemption per sample, or more runnable tasks than CPUs. */
	rep->disturbed = rep->involuntary > (long)(rep->n * rep->samples * rep->processes) ||
			 rep->loadavg > sysconf(_SC_NPROCESSORS_ONLN);
	vk_env_governor("", rep->governor, sizeof(rep->governor));
	vk_env_check(&rep->warnings, "", &si, rep->loadavg, sysconf(_SC_NPROCESSORS_ONLN));
	vk_env_check_groups(&rep->warnings, short_rows(rep), rep->n);
	unjudged = unjudged_rows(rep, &least);
	vk_env_check_at_once(&rep->warnings, unjudged, rep->n, least);
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

/* Each row's name and path, in the order the workers measure them. */
static size_t name_rows(const struct vk_bench_cmd_opts *o, const struct vk_bench_case *cases,
			size_t ncases, struct vk_bench_result *res)
{
	size_t n = 0;

	for (size_t i = 0; i < ncases; i++) {
		for (int p = 0; p < VK_NPATHS; p++) {
			if (!(o->call.paths & VK_PATH_BIT(p)))
				continue;
			memcpy(res[n].api, cases[i].api, sizeof(res[n].api));
			res[n++].path = p;
		}
	}
	return n;
}

/* The run's reference: the median of its processes'. */
static void reference(struct vk_bench_report *rep, const struct vk_bench_rows *rows)
{
	double each[VK_BENCH_MAX_GROUPS];

	rep->nref = rows->nref;
	rep->ref = rows->ref;
	for (int k = 0; k < VK_REF_KINDS; k++) {
		for (int i = 0; i < rows->nref; i++)
			each[i] = rows->ref[i].ns[k];
		rep->reference.ns[k] = vk_median(each, rows->nref);
	}
}

static int measure(struct vk_bench_cmd_opts *o, struct vk_bench_case *cases,
		   size_t ncases, const struct vk_timer *timer, struct vk_bench_result *res)
{
	struct vk_bench_report rep = {
		.version = vk_version, .seconds = o->m.seconds, .samples = o->m.samples,
		.processes = o->processes, .cpu = o->m.cpu, .cold = o->cold, .timer = timer,
		.threads = o->threads, .thread_cpu = o->thread_cpu, .random_len = o->length,
		.r = res,
	};
	struct vk_bench_rows rows = { .cases = cases, .ncases = ncases, .r = res };
	struct vk_doc doc = { .command = "bench" };
	size_t measured = 0, failed = 0;
	long vol0, invol0;
	int status;

	switches(&vol0, &invol0);
	rows.n = rep.n = name_rows(o, cases, ncases, res);
	status = vk_bench_workers(o, timer, &rows);
	/* A worker that died is in the document, beside what the others measured. */
	if (status && status != VK_EXIT_FAIL && status != VK_EXIT_ERROR)
		return status;
	for (size_t i = 0; i < rep.n; i++) {
		measured += !res[i].skipped;
		failed += res[i].failed != 0;
	}
	reference(&rep, &rows);
	describe_run(&rep, vol0, invol0);
	if (o->threads)
		vk_env_check_threads(&rep.warnings, o->threads, o->ncpus);
	doc.kind = VK_DOC_BENCH;
	doc.bench = &rep;
	vk_run_render(o->call.format, &doc);
	if (o->outdir && write_files(o->outdir, &doc))
		return VK_EXIT_USAGE;
	vk_run_keep_bench(&rep, res);
	/* A call that failed is the code under test's failure, as a crash is. */
	if (failed || status == VK_EXIT_FAIL)
		return VK_EXIT_FAIL;
	if (status)
		return status;
	return measured ? VK_EXIT_OK : VK_EXIT_SKIP;
}

/* The library is probed here too (in a child), so that a bad --impl is a
 * usage error said once, not a worker's death said ten times. */
static int check_impl(const char *impl, struct vk_image *im)
{
	struct vk_callset cs;
	char err[256];

	if (vk_callset_init(&cs, im, impl, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", vk_progname, vk_safe(err));
		return VK_EXIT_USAGE;
	}
	return VK_EXIT_OK;
}

static int run(struct vk_bench_cmd_opts *o, struct vk_bench_case *cases,
	       size_t ncases)
{
	struct vk_timer timer;
	struct vk_bench_result *res;
	struct vk_image im;
	int status, have_vdso = vk_image_open_live(&im) == 0;
	cpu_set_t allowed;

	/* Before bench pins itself to one of them. */
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		CPU_ZERO(&allowed);
	status = vk_bench_setup(&o->m.cpu, &timer);
	if (!status && o->threads)
		vk_bench_thread_cpus(o, &allowed);
	if (!status)
		status = check_impl(o->call.impl, have_vdso ? &im : NULL);
	if (status)
		return status;
	res = calloc(ncases * VK_NPATHS, sizeof(*res));
	if (!res) {
		fprintf(stderr, "%s: out of memory\n", vk_progname);
		return VK_EXIT_USAGE;
	}
	status = measure(o, cases, ncases, &timer, res);
	/* Unless `all` keeps the rows. */
	if (!vk_all || vk_all->kept.bench != res)
		free(res);
	return status;
}

/* A worker: the parent's CPU and timer, its share of the budget. */
static int run_worker(struct vk_bench_cmd_opts *o,
		      const struct vk_bench_case *cases, size_t ncases)
{
	struct vk_timer timer;
	/* The processes' cold samples must fit in the parent's row together. */
	struct vk_bench b = { .timer = &timer, .seconds = o->m.seconds,
			      .samples = o->m.samples, .cold = o->cold,
			      .max_cold = VK_BENCH_MAX_SAMPLES / o->processes };
	struct vk_callset cs;
	struct vk_image im;
	char err[256];
	int status, have_vdso = vk_image_open_live(&im) == 0;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(o->m.cpu, &set);
	if (vk_bench_worker_timer(o->worker, &timer) || o->m.cpu < 0 ||
	    sched_setaffinity(0, sizeof(set), &set))
		return vk_usage_error("--worker is bench's own, for its worker processes");
	if (vk_callset_init(&cs, have_vdso ? &im : NULL, o->call.impl, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", vk_progname, vk_safe(err));
		return VK_EXIT_USAGE;
	}
	/* A worker is bench's child: the library is loaded here, not in bench. */
	vk_callset_load(&cs);
	if (vk_bench_init(&b)) {
		fprintf(stderr, "%s: out of memory\n", vk_progname);
		return VK_EXIT_USAGE;
	}
	b.cs = &cs;
	status = vk_bench_worker(o, &b, cases, ncases);
	vk_bench_free(&b);
	return status;
}

#define DEFAULT_OPTS                                                            \
	{ .m = { .seconds = 0.08, .samples = 5, .cpu = -1 },                    \
	  .processes = VK_BENCH_DEFAULT_PROCESSES, .length = VK_BENCH_RANDOM_LEN }
#define DEFAULT_PATHS                                                           \
	(VK_PATH_BIT(VK_PATH_VDSO) | VK_PATH_BIT(VK_PATH_LIBC) | VK_PATH_BIT(VK_PATH_SYSCALL))

int cmd_bench(int argc, char **argv)
{
	struct vk_bench_cmd_opts o = DEFAULT_OPTS;
	struct vk_bench_case cases[VK_BENCH_MAX_CASES];
	size_t n;
	enum vk_opt_result r = parse_opts(argc, argv, &o);

	if (r == VK_OPT_OK)
		r = vk_call_paths(&o.call, DEFAULT_PATHS);
	if (r != VK_OPT_OK)
		return vk_opt_exit(r);
	if (vk_bench_cases(argc - optind, argv + optind, cases, &n))
		return VK_EXIT_USAGE;
	for (size_t i = 0; i < n; i++)
		cases[i].len = o.length;
	if (o.worker)
		return run_worker(&o, cases, n);
	return run(&o, cases, n);
}
