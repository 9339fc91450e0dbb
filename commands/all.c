// SPDX-License-Identifier: MIT
/*
 * vdsokit all: the one job a CI or test farm runs: every command on this
 * vDSO with its defaults, then one screen of findings and one exit status.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/result/findings.h"
#include "core/base/isolate.h"
#include "core/stress/stress.h"
#include "report/bench.h"
#include "report/doc.h"
#include "report/report.h"
#include "report/summary.h"
#include "commands/commands.h"
#include "cli/repro.h"

static const char head[] =
	"Usage: vdsokit all [--verbose] [-d SEC] [--format FMT] [--output DIR]\n\n"
	"The main job: run every command on this process's vDSO with its\n"
	"defaults: info, verify, abi, timens, fallback, then bench; inside\n"
	"'vdsokit vm' only (vdsokit.vm=1 on the kernel's command line), stress\n"
	"last, as it changes the clock: never on the machine you run it on. The text\n"
	"report fits on one screen: the machine, one row per command, each\n"
	"finding once (what differs, the APIs, clocks and paths it covers, how\n"
	"many checks it failed, an example and the command that reproduces it),\n"
	"and the bench headline. With --format ktap, one KTAP v1 document with\n"
	"one subtest per command, each command's results nested in it; with\n"
	"--format json, one document whose \"children\" are the commands' own,\n"
	"in order (man vdsokit, JSON OUTPUT); with --format openmetrics, the\n"
	"gauges info, fallback and bench give, and each command's checks and\n"
	"each finding's (see 'man vdsokit').\n\n";

static const char tail[] =
	"\n"
	"When stderr is a terminal, a progress line there says which command\n"
	"runs, how much is done and about how long is left.\n\n"
	"Exit status: the worst of the commands run, in the order 0, 4, 3, 1, 2:\n"
	"1 a check failed, 2 usage error or an --output file not written, 3 no\n"
	"check failed but vdsokit's own error (no fork, no memory, a syscall it\n"
	"needs refused) kept some from running, 4 no vDSO in this process, else 0.\n";

struct vk_run *vk_all;

/* The run all makes of each command (commands.h); alone, what it does. */
void vk_run_render(enum vk_format format, const struct vk_doc *doc)
{
	if (!vk_all)
		vk_render(stdout, format, doc);
	else if (vk_all->out)
		vk_render(vk_all->out, format, doc);
}

void vk_run_keep(struct vk_results *rs)
{
	if (!vk_all) {
		vk_results_free(rs);
		return;
	}
	vk_all->kept.rs = *rs;
	memset(rs, 0, sizeof(*rs));
}

int vk_run_keep_info(const struct vk_info *in)
{
	if (!vk_all)
		return 0;
	vk_all->kept.info = malloc(sizeof(*in));
	if (!vk_all->kept.info) {
		fprintf(stderr, "%s: out of memory\n", vk_progname);
		return -1;
	}
	*vk_all->kept.info = *in;
	/* The image is closed when info ends: keep no pointer into it. */
	vk_all->kept.info->im = NULL;
	vk_all->kept.info->no_image = in->im ? NULL : "no vDSO in this process";
	return 0;
}

void vk_run_keep_bench(const struct vk_bench_report *rep, struct vk_bench_result *res)
{
	struct vk_kept *k = vk_all ? &vk_all->kept : NULL;

	if (!k)
		return;
	k->bench_run = malloc(sizeof(*rep));
	if (k->bench_run) {
		/* No pointer into bench's stack or options is kept. */
		*k->bench_run = *rep;
		k->bench_run->timer = NULL;
		k->bench_run->ref = NULL;
		k->bench_run->thread_cpu = NULL;
		k->bench_run->nref = 0;
	}
	k->bench = res;
	k->nbench = rep->n;
}

int vk_run_progress(double done)
{
	if (!vk_all || !vk_all->progress)
		return 0;
	vk_all->progress(vk_all->ctx, done);
	return 1;
}

/* A row of the command table that all runs, and what it gave. */
struct ran {
	const struct vk_cmd *row;
	struct vk_run run;
	int status;
	double seconds;
};

struct all {
	enum vk_format format;	/* text, ktap, json or openmetrics */
	int verbose;
	double duration;	/* -d, or 0: each command's default */
	const char *outdir;	/* --output, or NULL */
	FILE *json;		/* DIR/report.json while the commands run */
	struct vk_json doc;	/* all's JSON, the steps' documents nested in it */
	struct vk_files files;	/* it and the others, renamed in at the end */
	double begin;		/* when the first step began, for the progress line */
	size_t current;		/* the step running, an index into ran */
	struct ran *ran;	/* the command table's rows that run here, in order */
	size_t nrun;
	struct vk_summary_step *sumstep;	/* by index into ran */
	struct vk_findings findings;
	struct vk_summary sum;
};

static int worst(int a, int b)
{
	static const int rank[] = { [VK_EXIT_OK] = 0, [VK_EXIT_SKIP] = 1, [VK_EXIT_ERROR] = 2,
				    [VK_EXIT_FAIL] = 3, [VK_EXIT_USAGE] = 4 };

	return rank[b] > rank[a] ? b : a;
}

static enum vk_outcome outcome(int status)
{
	return status == VK_EXIT_OK ? VK_OUTCOME_OK : status == VK_EXIT_SKIP ? VK_OUTCOME_SKIP :
	       status == VK_EXIT_FAIL ? VK_OUTCOME_FAIL : VK_OUTCOME_ERROR;
}

/* What a command prints while it runs: its JSON into report.json with
 * --output; all of it with --format json or --verbose; else nothing, as
 * all prints its own report. */
static enum vk_format fmt(const struct all *a)
{
	if (a->outdir)
		return VK_FMT_JSON;
	if (a->format == VK_FMT_JSON || a->verbose)
		return a->format;
	return VK_FMT_NONE;
}

/* Every row all runs, but those that change the clock outside vdsokit vm. */
static int choose_steps(struct all *a)
{
	int in_vm = vk_stress_refusal(0) == NULL;

	a->ran = calloc(vk_ncommands, sizeof(*a->ran));
	a->sumstep = calloc(vk_ncommands, sizeof(*a->sumstep));
	if (!a->ran || !a->sumstep) {
		fprintf(stderr, "%s: out of memory\n", vk_progname);
		return -1;
	}
	for (size_t i = 0; i < vk_ncommands; i++) {
		const struct vk_cmd *row = &vk_commands[i];

		if ((row->flags & VK_CMD_ALL) && (in_vm || !(row->flags & VK_CMD_VM_ONLY)))
			a->ran[a->nrun++].row = row;
	}
	return 0;
}

/* The summary of what the steps kept and how they ended. */
static void summarize(struct all *a)
{
	for (size_t k = 0; k < a->nrun; k++) {
		struct vk_summary_step *st = &a->sumstep[k];

		st->name = a->ran[k].row->name;
		st->outcome = outcome(a->ran[k].status);
		st->role = a->ran[k].row->flags;
		st->seconds = a->ran[k].seconds;
		st->kept = &a->ran[k].run.kept;
	}
	a->sum.version = vk_version;
	vk_summary_make(&a->sum, a->sumstep, a->nrun, &a->findings);
}

/* The run's exit status: the worst of the steps' that count. */
static int verdict(const struct all *a)
{
	int status = VK_EXIT_OK;

	for (size_t k = 0; k < a->nrun; k++) {
		int st = a->ran[k].status;

		if ((a->ran[k].row->flags & VK_CMD_SKIP_NEUTRAL) && st == VK_EXIT_SKIP)
			st = VK_EXIT_OK;
		status = worst(status, st);
	}
	return status;
}

/* report.json is written while the commands run; these after. */
static const struct vk_output files[] = {
	{ "report.txt", VK_FMT_TEXT },
	{ "report.ktap", VK_FMT_KTAP },
	{ "report.html", VK_FMT_HTML },
};

/* With --output, stdout's JSON is report.json's copy. */
static void copy_json(const struct all *a)
{
	char path[4096], buf[4096];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/report.json", a->outdir);
	f = fopen(path, "r");
	while (f && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stdout);
	if (f)
		fclose(f);
}

/*
 * On a terminal only: which step, how much is done, how long is left,
 * scaled by how fast the steps before it went. Not when the commands
 * print to the same terminal as they run: their lines are the progress.
 */
static int show_progress(const struct all *a)
{
	return isatty(STDERR_FILENO) &&
	       (fmt(a) == VK_FMT_NONE || a->outdir || !isatty(STDOUT_FILENO));
}

/* frac of the current step is done: the command reports it as it goes. */
static void progress(void *ctx, double frac)
{
	const struct all *a = ctx;
	double done = 0, total = 0, left, elapsed = vk_monotonic() - a->begin;
	size_t i = a->current;

	for (size_t k = 0; k < a->nrun; k++) {
		double w = a->ran[k].row->weight;

		done += k < i ? w : k == i ? frac * w : 0;
		total += w;
	}
	/* Until a tenth is done, the pace seen says too little to scale by. */
	left = done > total / 10 ? elapsed * (total - done) / done : total - done;
	fprintf(stderr, "\r\033[Kvdsokit all: %s (%zu/%zu), %.0f%% done, about %.0f s left",
		a->ran[i].row->name, i + 1, a->nrun, 100 * done / total, left);
}

/* The command line all runs row with, into argv: all's defaults, and its
 * format; its argc. */
static int step_argv(const struct all *a, const struct vk_cmd *row, char **argv, char *secs,
			size_t len)
{
	size_t n = 0;

	argv[n++] = (char *)row->name;
	for (char *const *o = row->all_args; o && *o; o++)
		argv[n++] = *o;
	if (a->duration && (row->flags & VK_CMD_ALL_D)) {
		snprintf(secs, len, "%.17g", a->duration);
		argv[n++] = "-d";
		argv[n++] = secs;
	}
	if (a->verbose && (row->flags & VK_CMD_ALL_VERBOSE))
		argv[n++] = "--verbose";
	if (fmt(a) != VK_FMT_NONE) {
		argv[n++] = "--format";
		argv[n++] = (char *)vk_format_name(fmt(a));
	}
	argv[n] = NULL;
	return (int)n;
}

static void run_step(struct all *a, size_t k, FILE *out)
{
	struct ran *r = &a->ran[k];
	double start = vk_monotonic();
	char *argv[16], secs[32];
	int argc = step_argv(a, r->row, argv, secs, sizeof(secs));

	a->current = k;
	if (show_progress(a)) {
		r->run.progress = progress;
		r->run.ctx = a;
		progress(a, 0);
	}
	if (fmt(a) != VK_FMT_JSON && a->verbose)
		fprintf(out, "%s== %s ==\n", k ? "\n" : "", r->row->name);
	fflush(out);
	r->run.out = fmt(a) == VK_FMT_NONE ? NULL : out;
	vk_all = &r->run;
	optind = 0;	/* getopt starts afresh on the command's argv */
	r->status = r->row->fn(argc, argv);
	vk_all = NULL;
	fflush(out);
	r->seconds = vk_monotonic() - start;
}

/* all's JSON document: its envelope, and each step's document in "children". */
static void json_begin(struct all *a, FILE *out)
{
	struct vk_sysinfo si;
	const struct vk_envelope d = { .command = "all", .version = 1, .tool_version = vk_version,
				       .sys = &si };

	vk_sysinfo_read(&si);
	vk_json_init(&a->doc, out);
	vk_doc_begin(&a->doc, NULL, &d);
	vk_json_array(&a->doc, "children");
	vk_json_nest(&a->doc);
}

static void json_end(struct all *a)
{
	vk_json_nest(NULL);
	vk_json_end(&a->doc);
	vk_json_end(&a->doc);
}

static void run_steps(struct all *a)
{
	FILE *out = a->json ? a->json : stdout;

	a->begin = vk_monotonic();
	if (fmt(a) == VK_FMT_JSON)
		json_begin(a, out);
	for (size_t k = 0; k < a->nrun; k++)
		run_step(a, k, out);
	if (show_progress(a))
		fprintf(stderr, "\r\033[K");
	if (fmt(a) == VK_FMT_JSON)
		json_end(a);
}

static int run_all(struct all *a)
{
	const struct vk_doc doc = { .command = "all", .kind = VK_DOC_SUMMARY, .summary = &a->sum };
	int status;

	if (a->outdir && !(a->json = vk_output_open(&a->files, a->outdir, "report.json")))
		return VK_EXIT_USAGE;
	run_steps(a);
	status = verdict(a);
	summarize(a);
	a->sum.outcome = outcome(status);
	/* The reports and the reproducers are one set, replaced whole or not at all. */
	if (a->outdir && (vk_output_render(&a->files, a->outdir, files, ARRAY_SIZE(files), &doc) ||
			  vk_repro_write(vk_version, a->outdir, &a->findings, &a->files)))
		return VK_EXIT_USAGE;
	if (a->format == VK_FMT_JSON) {
		if (a->outdir)
			copy_json(a);
		return status;
	}
	if (a->verbose)
		printf("\n== verdict ==\n");
	vk_render(stdout, a->format, &doc);
	return status;
}

static enum vk_opt_result refuse_image(const char *arg, void *dest)
{
	(void)arg;
	(void)dest;
	return vk_opt_error("--image is for info and list-apis: "
			    "all runs on this process's vDSO");
}

static enum vk_opt_result parse_opts(int argc, char **argv, struct all *a)
{
	const struct vk_option opt[] = {
		VK_OPT('v', "verbose", VK_OPT_FLAG, NULL,
		       "text: every command's full report, then the verdict", &a->verbose),
		VK_OPT('d', "duration", VK_OPT_SECONDS, "SEC",
		       "verify's, timens's and bench's budget per API\n"
		       "(default: each its own, 1, 0.2 and 0.08)", &a->duration),
		/* Its JSON is its steps' documents, printed as they run (run_steps). */
		VK_OPT_FORMAT_ROW_ALSO(&a->format, VK_DOC_SUMMARY, VK_FMT_JSON, ""),
		VK_OPT('o', "output", VK_OPT_STRING, "DIR",
		       "also write DIR/report.txt, report.json, report.ktap and\n"
		       "report.html (self-contained: inline SVG, no script),\n"
		       "and DIR/repro/NAME.txt and NAME.c for each finding;\n"
		       "DIR is made if missing; the reports and reproducers\n"
		       "replaced at once or none; repro/ holds this run's\n"
		       "findings only", &a->outdir),
		VK_OPT('i', "image", VK_OPT_CALL, "FILE", NULL, NULL, .call = refuse_image),
		VK_OPT_HELP_ROW,
	};
	const struct vk_options opts = VK_OPTIONS(head, tail, opt);
	enum vk_opt_result r = vk_options_parse(&opts, argc, argv);

	if (r != VK_OPT_OK)
		return r;
	if (optind < argc)
		return vk_opt_error("unexpected argument '%s'", argv[optind]);
	if (vk_verbose_text(a->verbose, a->format) != VK_OPT_OK)
		return VK_OPT_BAD;
	/* With --output the commands print their JSON into report.json. */
	if (a->verbose && a->outdir)
		return vk_opt_error("--verbose and --output do not go together: "
				    "DIR/report.json holds every result");
	return a->outdir ? vk_output_dir(a->outdir, &a->outdir) : VK_OPT_OK;
}

int cmd_all(int argc, char **argv)
{
	static struct all a;
	enum vk_opt_result r;
	int status;

	if (choose_steps(&a))
		return VK_EXIT_ERROR;
	r = parse_opts(argc, argv, &a);
	if (r != VK_OPT_OK)
		return vk_opt_exit(r);
	status = run_all(&a);
	for (size_t k = 0; k < a.nrun; k++)
		vk_kept_free(&a.ran[k].run.kept);
	free(a.ran);
	free(a.sumstep);
	return status;
}
