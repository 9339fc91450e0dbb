// SPDX-License-Identifier: MIT
/*
 * vdsokit compare: whether a change made calls faster or slower, beyond
 * the machine's noise: two bench files, or two --impl libraries measured
 * side by side in this run.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/benchfile/benchfile.h"
#include "core/benchrun/benchrun.h"
#include "report/compare.h"
#include "commands/commands.h"
#include "commands/compare_cmd.h"
#define DEFAULT_COPIES 24
#define DEFAULT_THRESHOLD 5	/* percent */

static const char head[] =
	"Usage: vdsokit compare [--threshold PCT] [--format FMT] OLD.json NEW.json\n"
	"       vdsokit compare [--threshold PCT] [--format FMT] OLD.json... --vs NEW.json...\n"
	"       vdsokit compare [OPTIONS] --impl [OLD.so] --impl NEW.so [API...]\n\n"
	"Compare two 'vdsokit bench --format json' runs, or several a side, merged\n"
	"(give 3 or more to tell 5% across boots); or measure two sides in turn in\n"
	"this one process, where run-to-run drift cancels: the kernel's vDSO\n"
	"against one --impl library, or two libraries, each loaded --copies times.\n\n"
	"Each API and path gets the new/old ratio of the medians with its 95% CI,\n"
	"a p-value and a verdict: 'regression' or 'improvement' (p < 0.001 and\n"
	"beyond 100% +- PCT), '~', 'too few runs for a verdict' (under 7 processes\n"
	"a side) or 'the machine moved: no verdict' (its reference loops moved).\n"
	"The last line sums up, with the geometric mean of the ratios. How the\n"
	"verdict is reached, and which bench files are refused: 'man vdsokit'.\n\n";

static const char tail[] =
	"\n"
	"Exit status: 0 no regression, 1 a significant regression beyond the threshold,\n"
	"a row whose calls failed on a side (no verdict: it names the call, the\n"
	"errno and how often), or with --impl a side that crashed, exited or hung\n"
	"(30 s plus 8 times -d) while measured (its row names it, the others are\n"
	"measured); 2 usage error, a bad file, files of different getrandom\n"
	"--length, an --impl that cannot be loaded (see verify)\n"
	"or an --output file not written, 3 vdsokit could not pin itself to the\n"
	"CPU (a refused sched_setaffinity), 4 nothing could be measured.\n";

struct compare {
	struct vk_compare_report rep;
	struct vk_sysinfo sys;		/* rep's */
	struct vk_sides_plan sides;	/* with --impl */
	const char *outdir;	/* --output */
	char *args[2 * VK_COMPARE_MAX_RUNS + VK_BENCH_MAX_CASES];	/* files, or APIs */
	int nargs;
	int vs;			/* files before --vs: the old side; -1 without it */
};

static const struct vk_output files[] = {
	{ "report.txt", VK_FMT_TEXT }, { "report.json", VK_FMT_JSON },
	{ "report.ktap", VK_FMT_KTAP }, { "report.html", VK_FMT_HTML },
};

static int report(struct compare *c, enum vk_format format)
{
	static struct vk_files s;
	const struct vk_doc doc = { .command = "compare", .kind = VK_DOC_COMPARE,
				    .compare = &c->rep };

	vk_render(stdout, format, &doc);
	if (c->outdir &&
	    vk_output_write(&s, c->outdir, files, ARRAY_SIZE(files), &doc))
		return VK_EXIT_USAGE;
	return c->rep.regressions ? VK_EXIT_FAIL : VK_EXIT_OK;
}

static void warn_mismatch(const struct vk_bf_mismatch *m, void *ctx)
{
	(void)ctx;
	fprintf(stderr, "%s: warning: the runs come from different %s: %s (%s), %s (%s)\n",
		vk_progname, m->what, m->x, m->a->name, m->y, m->b->name);
}

/* The files before --vs (or the first) against those after it (or the second). */
static int compare_files(struct compare *c, enum vk_format format)
{
	struct vk_compare_files d = { .rep = &c->rep };
	struct vk_bf_err e;
	int status = VK_EXIT_USAGE;

	if (vk_compare_files_read(c->args, c->vs, c->nargs - c->vs, &d, warn_mismatch, NULL, &e))
		fprintf(stderr, "%s: %s\n", vk_progname, e.msg);
	else
		status = report(c, format);
	/* A run whose calls failed has no figure there: the runs' failure, as a crash is. */
	if (status == VK_EXIT_OK && c->rep.nfailed)
		status = VK_EXIT_FAIL;
	vk_compare_files_free(&d);
	return status;
}

/* Where compare's status comes from, by how its measurement ended. */
static const int exit_of[] = {
	[VK_MEASURED] = VK_EXIT_OK, [VK_MEASURE_REFUSED] = VK_EXIT_USAGE,
	[VK_MEASURE_NO_PIN] = VK_EXIT_ERROR, [VK_MEASURE_NO_TIMER] = VK_EXIT_SKIP,
	/* Nothing measured on both sides is not a bad argument. */
	[VK_MEASURE_NO_ROWS] = VK_EXIT_SKIP,
};

static void clear_line(void)
{
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[K");
}

static void progress(void *ctx, size_t i, size_t n, const char *api)
{
	(void)ctx;
	if (i == n)
		clear_line();
	else if (isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[K[%zu/%zu] %s", i + 1, n, api);
}

static void note(void *ctx, const char *line)
{
	(void)ctx;
	clear_line();
	fprintf(stderr, "%s: %s\n", vk_progname, line);
}

/* The APIs named (or all) measured on the two --impl sides in turn. */
static int compare_sides(struct compare *c, int argc, char **argv, enum vk_format format)
{
	const struct vk_bench_say say = { progress, note, NULL };
	struct vk_bench_case cases[VK_BENCH_MAX_CASES];
	struct vk_sides_doc d = { .rep = &c->rep };
	char err[VK_MEASURE_ERR_LEN];
	size_t n = 0;
	const char *bad;
	enum vk_measure_end end;
	int status;

	if (vk_bench_cases(argc, argv, cases, &n, &bad))
		return vk_usage_error("unknown API '%s' (see 'vdsokit list-apis')", bad);
	end = vk_sides_measure(&c->sides, cases, n, &say, &d, err, sizeof(err));
	if (end)
		fprintf(stderr, "%s: %s\n", vk_progname, err);
	status = end ? exit_of[end] : report(c, format);
	/* A call that failed is the code under test's failure, as a crash is. */
	if ((status == VK_EXIT_OK || status == VK_EXIT_SKIP) && c->rep.nfailed)
		status = VK_EXIT_FAIL;
	vk_sides_free(&d);
	return status;
}

static enum vk_opt_result add_arg(char *arg, void *compare)
{
	struct compare *c = compare;

	if (c->nargs == (int)ARRAY_SIZE(c->args))
		return vk_opt_error("too many arguments (at most %d files a side)",
				    VK_COMPARE_MAX_RUNS);
	c->args[c->nargs++] = arg;
	return VK_OPT_OK;
}

static enum vk_opt_result add_impl(const char *arg, void *compare)
{
	struct compare *c = compare;

	if (c->sides.nimpl == 2)
		return vk_opt_error("--impl is given at most twice");
	c->sides.impl[c->sides.nimpl++] = arg;
	return VK_OPT_OK;
}

static enum vk_opt_result mark_vs(const char *arg, void *compare)
{
	struct compare *c = compare;

	(void)arg;
	if (c->vs >= 0)
		return vk_opt_error("--vs is given once");
	c->vs = c->nargs;
	return VK_OPT_OK;
}

/* Files: OLD NEW, or OLD... --vs NEW..., each side within VK_COMPARE_MAX_RUNS. */
static int check_files(struct compare *c)
{
	if (c->vs < 0) {
		if (c->nargs != 2)
			return vk_usage_error("expected two files, OLD.json and NEW.json, got %d (several runs a side: OLD.json... --vs NEW.json...)",
					      c->nargs);
		c->vs = 1;
	}
	if (c->vs == 0 || c->vs == c->nargs)
		return vk_usage_error("--vs needs a file before it and one after it");
	if (c->vs > VK_COMPARE_MAX_RUNS || c->nargs - c->vs > VK_COMPARE_MAX_RUNS)
		return vk_usage_error("at most %d files a side", VK_COMPARE_MAX_RUNS);
	return VK_EXIT_OK;
}

static enum vk_opt_result parse_opts(int argc, char **argv, struct compare *c,
				     enum vk_format *format)
{
	unsigned long long copies = c->sides.copies;
	int measuring = 0;
	const struct vk_option opt[] = {
		VK_OPT(0, "threshold", VK_OPT_NUMBER, "PCT",
		       "smallest change that counts, in percent (default 5, 0 to 1000)",
		       &c->rep.threshold, .hi = 1000),
		VK_OPT_FORMAT_ROW(format, VK_DOC_COMPARE,
				  "html: as --output's; markdown: a before, after\n"
				  "and ratio table for a commit message"),
		VK_OPT('o', "output", VK_OPT_CALL, "DIR",
		       "also write DIR/report.txt, .json, .ktap and .html\n"
		       "(self-contained: inline SVG, no script),\n"
		       "all replaced at once or none", &c->outdir, .call = vk_output_dir),
		VK_OPT(0, "vs", VK_OPT_CALL, NULL,
		       "the files before it are the old side, those after\n"
		       "it the new (up to 64 a side)", c, .call = mark_vs),
		VK_OPT('I', "impl", VK_OPT_CALL, "LIB.so", "a side to measure (see above)", c,
		       .call = add_impl),
		VK_BENCH_ROWS(&c->sides.m, &measuring,
			      "with --impl: budget per API and side (default 0.2)",
			      "with --impl: samples per side (default 192, 2-512)",
			      "with --impl: pin to CPU N"),
		VK_OPT('K', "copies", VK_OPT_COUNT, "K",
		       "with --impl: loads per library (default 24, 1-32)", &copies, .lo = 1,
		       .hi = VK_SIDES_MAX_COPIES, .given = &measuring),
		VK_OPT_HELP_ROW,
	};
	struct vk_options opts = VK_OPTIONS(head, tail, opt);
	enum vk_opt_result r;

	/* The files in order, so that those before --vs are told from those after. */
	opts.operand = add_arg;
	opts.operand_dest = c;
	r = vk_options_parse(&opts, argc, argv);

	c->sides.copies = copies;
	while (r == VK_OPT_OK && optind < argc)	/* after "--" */
		r = add_arg(argv[optind++], c);
	if (r != VK_OPT_OK)
		return r;
	if (measuring && !c->sides.nimpl)
		return vk_opt_error("-d, -n, -c and --copies measure, and need --impl");
	if (c->sides.m.samples < 2ULL * c->sides.copies)
		return vk_opt_error("--samples is %llu: at least 2 per copy, %d in all",
				    c->sides.m.samples, 2 * c->sides.copies);
	return VK_OPT_OK;
}

int vk_compare_files(char *const *paths, int nold, int nnew)
{
	struct compare c = {
		.rep = { .version = vk_version, .threshold = DEFAULT_THRESHOLD },
		.vs = nold,
		.nargs = nold + nnew,
	};

	memcpy(c.args, paths, (nold + nnew) * sizeof(*paths));
	vk_sysinfo_read(&c.sys);
	c.rep.sys = &c.sys;
	return compare_files(&c, VK_FMT_TEXT);
}

int cmd_compare(int argc, char **argv)
{
	struct compare c = {
		.rep = { .version = vk_version, .threshold = DEFAULT_THRESHOLD },
		.sides = { .m = { .seconds = 0.2, .samples = 192, .cpu = -1 },
			   .copies = DEFAULT_COPIES },
		.vs = -1,
	};
	enum vk_format format = VK_FMT_TEXT;
	int status;
	enum vk_opt_result r = parse_opts(argc, argv, &c, &format);

	if (r != VK_OPT_OK)
		return vk_opt_exit(r);
	vk_sysinfo_read(&c.sys);
	c.rep.sys = &c.sys;
	if (c.sides.nimpl) {
		if (c.vs >= 0)
			return vk_usage_error("--vs compares files, not --impl");
		return compare_sides(&c, c.nargs, c.args, format);
	}
	status = check_files(&c);
	return status ? status : compare_files(&c, format);
}
