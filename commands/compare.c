// SPDX-License-Identifier: MIT
/*
 * vdsokit compare: whether a change made calls faster or slower, beyond
 * the machine's noise: two bench files, or two --impl libraries measured
 * side by side in this run.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/bench/bench.h"
#include "core/bench/compare.h"
#include "core/base/isolate.h"
#include "core/base/safe.h"
#include "core/benchfile/benchfile.h"
#include "report/compare.h"
#include "commands/commands.h"
#include "commands/compare_cmd.h"
#define MAX_COPIES 32
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
	struct vk_compare_row *rows;
	struct vk_bench_opts m;		/* with --impl */
	const char *impl[2];
	int nimpl;
	int copies;		/* loads of each library */
	const char *outdir;	/* --output */
	char *args[2 * VK_COMPARE_MAX_RUNS + VK_BENCH_MAX_CASES];	/* files, or APIs */
	int nargs;
	int vs;			/* files before --vs: the old side; -1 without it */
	struct vk_compare_failed *failed;	/* with --impl: room for a row a side */
};
/* A row for each API and path with samples on both sides, in OLD's order. */
static int build_rows(struct compare *c, const struct vk_series *old,
		      size_t nold, const struct vk_series *new, size_t nnew)
{
	c->rows = calloc(nold ? nold : 1, sizeof(*c->rows));
	if (!c->rows) {
		fprintf(stderr, "%s: %s\n", vk_progname, strerror(ENOMEM));
		return VK_EXIT_USAGE;
	}
	/* Rows whose calls failed are reported, though none is compared. */
	if (vk_compare_build_rows(&c->rep, c->rows, old, nold, new, nnew) || c->rep.nfailed)
		return VK_EXIT_OK;
	fprintf(stderr, "%s: %s and %s have no API and path with samples in both\n", vk_progname,
		c->rep.old, c->rep.new);
	return VK_EXIT_USAGE;
}

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
	struct vk_compare_runs a = { 0 }, b = { 0 };
	struct vk_bf_err e;
	int status = vk_compare_read_runs(c->args, c->vs, &a, &e) ||
		     vk_compare_read_runs(c->args + c->vs, c->nargs - c->vs, &b, &e) ||
		     vk_compare_same_length(a.f, a.nf, b.f, b.nf, &e);

	if (status) {
		fprintf(stderr, "%s: %s\n", vk_progname, e.msg);
		status = VK_EXIT_USAGE;
	}
	c->rep.old = a.names ? a.names : c->args[0];
	c->rep.new = b.names ? b.names : c->args[c->vs];
	c->rep.old_runs = c->vs;
	c->rep.new_runs = c->nargs - c->vs;
	if (!status) {
		c->failed = calloc(a.n + b.n + 1, sizeof(*c->failed));
		status = c->failed ? VK_EXIT_OK : VK_EXIT_USAGE;
		if (status)
			fprintf(stderr, "%s: %s\n", vk_progname, strerror(ENOMEM));
	}
	if (!status) {
		vk_compare_runs_context(&c->rep, &a, &b, warn_mismatch, NULL);
		vk_compare_failed_rows(&c->rep, c->failed, a.s, a.n, b.s, b.n);
		status = build_rows(c, a.s, a.n, b.s, b.n);
	}
	if (!status)
		status = report(c, format);
	/* A run whose calls failed has no figure there: the runs' failure, as a crash is. */
	if (status == VK_EXIT_OK && c->rep.nfailed)
		status = VK_EXIT_FAIL;
	free(c->failed);
	free(c->rows);
	vk_compare_free_runs(&a);
	vk_compare_free_runs(&b);
	return status;
}

/*
 * The sides, each library loaded c->copies times (the first from its
 * path, the others from copies in memory) in each child that measures,
 * old and new in turn: a copy's addresses and pages move its figure by a
 * percent or so for as long as it is loaded, and only several copies show
 * how much. Here each copy is only probed: compare never runs its code.
 */
struct sides {
	struct vk_callset cs[2][MAX_COPIES];	/* [library][copy] */
	int fd[2][MAX_COPIES];
	char name[2][MAX_COPIES][32];	/* a copy's path, loaded from in each child */
	int opened[2];			/* copies set up, whose fds to close */
	struct vk_bench_side side[2 * MAX_COPIES];
};

static void close_sides(struct sides *sd)
{
	for (int l = 0; l < 2; l++) {
		for (int j = 0; j < sd->opened[l]; j++) {
			if (sd->fd[l][j] >= 0)
				close(sd->fd[l][j]);
		}
	}
}

static int load_copies(const struct compare *c, const struct vk_image *im,
		       struct sides *sd, int l)
{
	char *name, err[256];

	for (int j = 0; j < c->copies; j++) {
		name = sd->name[l][j];
		sd->fd[l][j] = j ? vk_impl_copy(c->impl[l], name, sizeof(sd->name[l][j])) : -1;
		if (j && sd->fd[l][j] < 0) {
			fprintf(stderr, "%s: --impl %s: cannot copy it: %s\n", vk_progname, vk_safe(c->impl[l]),
				strerror(errno));
			return VK_EXIT_USAGE;
		}
		if (vk_callset_init(&sd->cs[l][j], im, j ? name : c->impl[l], err, sizeof(err))) {
			fprintf(stderr, "%s: %s\n", vk_progname, vk_safe(err));
			if (j)
				close(sd->fd[l][j]);
			return VK_EXIT_USAGE;
		}
		sd->opened[l]++;
	}
	return VK_EXIT_OK;
}

/* The kernel's vDSO and one library, or two libraries. */
static int open_sides(struct compare *c, struct sides *sd)
{
	struct vk_image im;
	int have_vdso = vk_image_open_live(&im) == 0;

	for (int l = 0; l < c->nimpl; l++) {
		if (load_copies(c, have_vdso ? &im : NULL, sd, l)) {
			close_sides(sd);
			return VK_EXIT_USAGE;
		}
	}
	for (int j = 0; j < c->copies; j++) {
		sd->side[2 * j] = (struct vk_bench_side){
			&sd->cs[0][j], c->nimpl == 2 ? VK_PATH_IMPL : VK_PATH_VDSO
		};
		sd->side[2 * j + 1] = (struct vk_bench_side){ &sd->cs[c->nimpl - 1][j], VK_PATH_IMPL };
	}
	c->rep.old = c->nimpl == 2 ? c->impl[0] : "the kernel's vDSO";
	c->rep.new = c->impl[c->nimpl - 1];
	return VK_EXIT_OK;
}

static void progress(size_t i, size_t n, const struct vk_bench_case *bc)
{
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[K[%zu/%zu] %s", i + 1, n, bc->api);
}

/* Side k's first copy whose calls failed, or NULL. */
static const struct vk_bench_result *failed_copy(const struct vk_bench_result *res, int k,
						 int copies)
{
	for (int j = 0; j < copies; j++) {
		if (res[2 * j + k].failed)
			return &res[2 * j + k];
	}
	return NULL;
}

/*
 * A side whose calls failed has no series: its time is the failure's.
 * The row says which call failed, how and how often, on stderr too.
 */
static void note_failed(struct compare *c, const char *api, const char *path,
			const struct vk_bench_result *res)
{
	for (int k = 0; k < 2; k++) {
		const struct vk_bench_result *r = failed_copy(res, k, c->copies);
		struct vk_compare_failed *f = &c->failed[c->rep.nfailed];

		if (!r)
			continue;
		*f = (struct vk_compare_failed){ .api = api, .path = path,
						 .side = k ? "new" : "old" };
		snprintf(f->why, sizeof(f->why), "%s", r->why);
		c->rep.nfailed++;
		if (isatty(STDERR_FILENO))
			fprintf(stderr, "\r\033[K");
		fprintf(stderr, "%s: %s on the %s side: %s; no verdict\n", vk_progname, api, f->side, f->why);
	}
}

/*
 * Side k's copies (res[k], res[k + 2], ...) as one series, a group a copy;
 * the new side's also with each copy's ratio to the old side's.
 */
static int fill_series(struct vk_series *s, const char *api, const char *path,
		       const struct vk_bench_result *res, int k, int copies)
{
	size_t n = 0;

	*s = (struct vk_series){ .api = api, .path = path };
	if (res[k].skipped || failed_copy(res, k, copies))
		return 0;
	s->ns = calloc(copies * res[k].n, sizeof(double));
	s->group_med = calloc(copies, sizeof(double));
	s->pair = k ? calloc(copies, sizeof(double)) : NULL;
	if (!s->ns || !s->group_med || (k && !s->pair))
		return -1;
	for (int j = 0; j < copies; j++) {
		const struct vk_bench_result *r = &res[2 * j + k];

		memcpy(s->ns + n, r->samples, r->n * sizeof(double));
		n += r->n;
		s->group_med[j] = r->median;
		if (k)
			s->pair[j] = vk_compare_pair_ratio(res[2 * j].samples, res[2 * j].n,
							   r->samples, r->n);
	}
	s->n = n;
	s->ngroups = copies;
	return 0;
}

/*
 * The libraries are user code, which may crash, exit or hang: each case
 * is measured in a child, which loads them and sends its results back.
 * The child shares this process's addresses, so a result's skip reason,
 * a static string, is still one here.
 */
struct measure {
	struct vk_bench *b;
	const struct vk_bench_case *bc;
	const struct vk_bench_side *side;
	int nsides;
	struct vk_bench_result *res;
};

static void measure_child(void *ctx, int fd)
{
	static struct vk_callset loaded[2 * MAX_COPIES];
	struct vk_bench_side side[2 * MAX_COPIES];
	struct measure *m = ctx;

	for (int k = 0; k < m->nsides; k++) {
		side[k] = m->side[k];
		side[k].cs = vk_callset_child(side[k].cs, VK_PATH_BIT(side[k].path), &loaded[k]);
	}
	vk_bench_run_sides(m->b, m->bc, side, m->nsides, m->res);
	vk_write_all(fd, m->res, m->nsides * sizeof(*m->res));
}

/* 0 with m->res filled, or -1 and how the child died in why. */
static int measure_isolated(struct measure *m, double timeout, char *why, size_t len)
{
	size_t want = m->nsides * sizeof(*m->res);
	struct vk_isolated out;
	int ok;

	if (vk_isolate(measure_child, m, timeout, &out)) {
		snprintf(why, len, "could not be run: fork failed: %s", strerror(errno));
		return -1;
	}
	ok = out.len == want && out.exited && !out.exit_status;
	if (ok)
		memcpy(m->res, out.data, want);
	else
		vk_isolated_describe(&out, timeout, why, len);
	vk_isolated_free(&out);
	return ok ? 0 : -1;
}

#define BLAME_TIMEOUT 5.0

/* Side k's name: "--impl LIB", or the kernel's vDSO. */
static void side_name(char *buf, size_t len, const struct compare *c, int k)
{
	if (!k && c->nimpl == 1)
		snprintf(buf, len, "the kernel's vDSO");
	else
		snprintf(buf, len, "--impl %s", vk_safe(c->impl[k ? c->nimpl - 1 : 0]));
}

/*
 * A case ended the child that measured both sides: each side's first copy
 * is measured alone, briefly, to name the one that dies; the sides that
 * did, bit k for side k, 0 if neither did.
 */
static int blame(const struct compare *c, const struct vk_timer *timer,
		 const struct vk_bench_case *bc, const struct vk_bench_side *side)
{
	struct vk_bench b = { .timer = timer, .seconds = 0.01, .samples = 2 };
	struct vk_bench_result res;
	char why[64], name[300];
	int named = 0;

	for (int k = 0; k < 2; k++) {
		struct measure m = { &b, bc, &side[k], 1, &res };

		if (!measure_isolated(&m, vk_watchdog_hook("VDSOKIT_COMPARE_TIMEOUT", BLAME_TIMEOUT),
				      why, sizeof(why)))
			continue;
		side_name(name, sizeof(name), c, k);
		fprintf(stderr, "%s: %s: measuring %s, it %s%s\n", vk_progname, name, bc->api,
			strncmp(why, "killed", 6) ? "" : "was ", why);
		named |= 1 << k;
	}
	return named;
}

/*
 * The case's results on every side: 0; or -1 when the child that measured
 * them died, said on stderr and kept as the case's failed row, on the side
 * that dies alone ("both" if neither or each does).
 */
static int measure_case(struct compare *c, struct vk_bench *b,
			const struct vk_bench_case *bc, const char *path, const struct sides *sd,
			struct vk_bench_result *res)
{
	static const char *const sides[4] = { "both", "old", "new", "both" };
	struct measure m = { b, bc, sd->side, 2 * c->copies, res };
	/* Far more than the sides' budget, as a call that never returns
	 * would; shorter under the test hook VDSOKIT_COMPARE_TIMEOUT. */
	double timeout = vk_watchdog_hook("VDSOKIT_COMPARE_TIMEOUT", 30 + 8 * c->m.seconds);
	struct vk_compare_failed *f = &c->failed[c->rep.nfailed];
	char why[64];
	int died;

	if (!measure_isolated(&m, timeout, why, sizeof(why)))
		return 0;
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[K");
	fprintf(stderr, "%s: measuring %s on both sides, the child %s%s\n", vk_progname, bc->api,
		strncmp(why, "killed", 6) ? "" : "was ", why);
	died = blame(c, b->timer, bc, sd->side);
	if (!died)
		fprintf(stderr, "%s: neither side died when measured alone\n", vk_progname);
	*f = (struct vk_compare_failed){ .api = bc->api, .path = path, .side = sides[died] };
	snprintf(f->why, sizeof(f->why), "the child that measured it %s%s",
		 strncmp(why, "killed", 6) ? "" : "was ", why);
	c->rep.nfailed++;
	return -1;
}

/* Measure each case on both sides; their results become the two series. */
static int measure_sides(struct compare *c, const struct vk_bench_case *cases,
			 size_t ncases, struct vk_series *ser)
{
	struct vk_timer timer;
	/* Each copy its share of the side's budget and samples. */
	struct vk_bench b = { .timer = &timer, .seconds = c->m.seconds / c->copies,
			      .samples = c->m.samples / c->copies };
	struct vk_bench_result *res = calloc(2 * c->copies, sizeof(*res));
	struct sides *sd = calloc(1, sizeof(*sd));
	const char *path;
	int status = !res || !sd ? VK_EXIT_USAGE : vk_bench_setup(&c->m.cpu, &timer);

	if (!res || !sd)
		fprintf(stderr, "%s: %s\n", vk_progname, strerror(ENOMEM));
	if (!status)
		status = open_sides(c, sd);
	/* One name for the rows, whichever paths the sides are. */
	path = c->nimpl == 2 ? "impl" : "vdso:impl";
	for (size_t i = 0; i < ncases && !status; i++) {
		progress(i, ncases, &cases[i]);
		/* A case that crashed is a row of its own, with no series. */
		if (measure_case(c, &b, &cases[i], path, sd, res)) {
			ser[i] = (struct vk_series){ .api = cases[i].api, .path = path };
			ser[ncases + i] = ser[i];
			continue;
		}
		note_failed(c, cases[i].api, path, res);
		if (fill_series(&ser[i], cases[i].api, path, res, 0, c->copies) ||
		    fill_series(&ser[ncases + i], cases[i].api, path, res, 1, c->copies)) {
			fprintf(stderr, "%s: %s\n", vk_progname, strerror(ENOMEM));
			status = VK_EXIT_USAGE;
		}
	}
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[K");
	if (sd && sd->opened[0])
		close_sides(sd);
	free(sd);
	free(res);
	return status;
}

static int compare_sides(struct compare *c, int argc, char **argv,
			 enum vk_format format)
{
	struct vk_bench_case cases[VK_BENCH_MAX_CASES];
	struct vk_series *ser = NULL;
	size_t n = 0;
	int status = vk_bench_cases(argc, argv, cases, &n);

	if (!status) {
		ser = calloc(2 * n, sizeof(*ser));
		c->failed = calloc(2 * n, sizeof(*c->failed));
		c->rep.failed = c->failed;
		if (!ser || !c->failed) {
			fprintf(stderr, "%s: %s\n", vk_progname, strerror(ENOMEM));
			status = VK_EXIT_USAGE;
		}
	}
	if (!status)
		status = measure_sides(c, cases, n, ser);
	if (!status) {
		status = build_rows(c, ser, n, ser + n, n);
		/* Nothing measured on both sides is not a bad argument. */
		status = status == VK_EXIT_USAGE ? VK_EXIT_SKIP : report(c, format);
	}
	/* A call that failed is the code under test's failure, as a crash is. */
	if ((status == VK_EXIT_OK || status == VK_EXIT_SKIP) && c->rep.nfailed)
		status = VK_EXIT_FAIL;
	free(c->failed);
	free(c->rows);
	for (size_t i = 0; ser && i < 2 * n; i++) {
		free(ser[i].ns);
		free(ser[i].group_med);
		free(ser[i].pair);
	}
	free(ser);
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

	if (c->nimpl == 2)
		return vk_opt_error("--impl is given at most twice");
	c->impl[c->nimpl++] = arg;
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
	unsigned long long copies = c->copies;
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
		VK_BENCH_ROWS(&c->m, &measuring,
			      "with --impl: budget per API and side (default 0.2)",
			      "with --impl: samples per side (default 192, 2-512)",
			      "with --impl: pin to CPU N"),
		VK_OPT('K', "copies", VK_OPT_COUNT, "K",
		       "with --impl: loads per library (default 24, 1-32)", &copies, .lo = 1,
		       .hi = MAX_COPIES, .given = &measuring),
		VK_OPT_HELP_ROW,
	};
	struct vk_options opts = VK_OPTIONS(head, tail, opt);
	enum vk_opt_result r;

	/* The files in order, so that those before --vs are told from those after. */
	opts.operand = add_arg;
	opts.operand_dest = c;
	r = vk_options_parse(&opts, argc, argv);

	c->copies = copies;
	while (r == VK_OPT_OK && optind < argc)	/* after "--" */
		r = add_arg(argv[optind++], c);
	if (r != VK_OPT_OK)
		return r;
	if (measuring && !c->nimpl)
		return vk_opt_error("-d, -n, -c and --copies measure, and need --impl");
	if (c->m.samples < 2ULL * c->copies)
		return vk_opt_error("--samples is %llu: at least 2 per copy, %d in all",
				    c->m.samples, 2 * c->copies);
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
		.m = { .seconds = 0.2, .samples = 192, .cpu = -1 },
		.copies = DEFAULT_COPIES,
		.vs = -1,
	};
	enum vk_format format = VK_FMT_TEXT;
	int status;
	enum vk_opt_result r = parse_opts(argc, argv, &c, &format);

	if (r != VK_OPT_OK)
		return vk_opt_exit(r);
	vk_sysinfo_read(&c.sys);
	c.rep.sys = &c.sys;
	if (c.nimpl) {
		if (c.vs >= 0)
			return vk_usage_error("--vs compares files, not --impl");
		c.rep.interleaved = 1;
		c.rep.copies = c.copies;
		return compare_sides(&c, c.nargs, c.args, format);
	}
	status = check_files(&c);
	return status ? status : compare_files(&c, format);
}
