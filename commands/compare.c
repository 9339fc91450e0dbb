// SPDX-License-Identifier: MIT
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/json_read.h"
#include "../core/stats.h"
#include "../report/json.h"
#include "commands.h"

#define SCHEMA "vdsokit-bench/1"
#define ALPHA 0.05		/* significance level of the Mann-Whitney test */
#define CONF 0.95		/* of the ratio's bootstrap interval */
#define BOOT_ITERS 10000
#define BOOT_SEED 0x5eedULL	/* fixed, so the same files give the same output */
/*
 * bench's samples are whole counter steps per batch, scaled by a
 * calibration each run repeats, and a process's figure for the same code
 * moves a little from run to run (up to 0.7% measured here for a path
 * through the kernel, none for the vDSO): two runs of the same code
 * differ in every sample, which a rank test alone calls significant. A
 * change within bench's run-to-run reproducibility is no change.
 */
#define RESOLUTION_PCT 1.0
#define MAX_FILE (64UL << 20)	/* a bench file is far smaller; this stops /dev/zero */

static const char usage[] =
	"Usage: vdsokit compare [--threshold PCT] [--format text|json] OLD.json NEW.json\n\n"
	"Compare two 'vdsokit bench --format json' runs. For each API and path with\n"
	"samples in both: the medians, their ratio new/old in percent with its 95%\n"
	"bootstrap interval, the Mann-Whitney p-value, and a verdict. A change is\n"
	"significant when p < 0.05 and the ratio is more than 1% (bench's run-to-run\n"
	"reproducibility) from 100%; it is a 'regression' or an 'improvement' when it\n"
	"is also beyond 100% +- PCT, else '~ (significant)'; any other row is '~'.\n"
	"A warning is printed when the runs come from different kernels, machines\n"
	"or CPU models.\n\n"
	"  -t, --threshold PCT  smallest change that counts, in percent (default 5)\n"
	"  -f, --format FMT     text (default) or json\n"
	"  -h, --help           show this help\n\n"
	"Exit status: 0 no regression, 1 a significant regression beyond the threshold,\n"
	"2 usage error or a bad file.\n";

/* One API on one path in a bench file; ns is NULL when it was skipped. */
struct series {
	const char *api, *path;	/* point into the file's tree */
	double *ns;
	size_t n;
};

struct bench_file {
	const char *name;
	struct vk_jval *doc;
	struct series *s;	/* one per element of "results" */
	size_t n;
};

struct row {
	struct series *old, *new;
	double old_med, new_med;	/* ns */
	double ratio, lo, hi;		/* new / old in percent, and its interval */
	double p;			/* Mann-Whitney */
	double shift;			/* Hodges-Lehmann: new - old, ns */
	const char *verdict;
	int significant;
};

struct compare {
	struct bench_file old, new;
	double threshold;
	struct row *rows;
	size_t nrows, regressions, improvements;
};

/* Print "vdsokit compare: FILE: message"; returns the exit status. */
__attribute__((format(printf, 3, 4)))
static int bad_file(const char *cmd, const struct bench_file *f, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s: ", cmd, f->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return VK_EXIT_USAGE;
}

/* The whole file, or NULL after saying why. */
static char *read_file(const char *cmd, const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	const char *why = f ? NULL : strerror(errno);
	size_t cap = 0, got = 1;
	char *buf = NULL, *grown;

	*len = 0;
	while (!why && got) {
		if (*len == cap) {
			cap = cap ? 2 * cap : 1 << 16;
			grown = cap <= MAX_FILE ? realloc(buf, cap) : NULL;
			if (!grown) {
				why = cap > MAX_FILE ? "larger than 64 MiB" : strerror(ENOMEM);
				break;
			}
			buf = grown;
		}
		got = fread(buf + *len, 1, cap - *len, f);
		*len += got;
		if (ferror(f))
			why = strerror(errno);
	}
	if (f)
		fclose(f);
	if (why) {
		fprintf(stderr, "%s: %s: %s\n", cmd, path, why);
		free(buf);
		return NULL;
	}
	return buf;
}

static int read_series(const char *cmd, struct bench_file *f, const struct vk_jval *r, size_t i)
{
	struct series *s = &f->s[i];
	const struct vk_jval *samples;

	s->api = vk_jstr(vk_jget(r, "api"));
	s->path = vk_jstr(vk_jget(r, "path"));
	if (!s->api || !s->path)
		return bad_file(cmd, f, "results[%zu] has no \"%s\" string", i,
				s->api ? "path" : "api");
	for (size_t k = 0; k < i; k++) {
		if (!strcmp(f->s[k].api, s->api) && !strcmp(f->s[k].path, s->path))
			return bad_file(cmd, f, "results[%zu] repeats %s on %s", i, s->api,
					s->path);
	}
	samples = vk_jget(r, "samples_ns");
	if (!samples && vk_jstr(vk_jget(r, "skipped")))
		return 0;
	if (!samples)
		return bad_file(cmd, f, "results[%zu] (%s on %s) has neither \"samples_ns\" nor \"skipped\"",
				i, s->api, s->path);
	s->n = vk_jarray_len(samples);
	if (s->n == 0)
		return bad_file(cmd, f, "results[%zu] (%s on %s): \"samples_ns\" is not a non-empty array",
				i, s->api, s->path);
	s->ns = calloc(s->n, sizeof(*s->ns));
	if (!s->ns)
		return bad_file(cmd, f, "%s", strerror(ENOMEM));
	for (size_t k = 0; k < s->n; k++) {
		s->ns[k] = vk_jnum(vk_jarray_at(samples, k));
		if (isnan(s->ns[k]))
			return bad_file(cmd, f, "results[%zu] (%s on %s): samples_ns[%zu] is not a number",
					i, s->api, s->path, k);
	}
	return 0;
}

static int read_bench(const char *cmd, struct bench_file *f)
{
	const char *schema = vk_jstr(vk_jget(f->doc, "schema"));
	const struct vk_jval *results = vk_jget(f->doc, "results");

	if (!schema)
		return bad_file(cmd, f, "no \"schema\" string: not a vdsokit bench file");
	if (strcmp(schema, SCHEMA))
		return bad_file(cmd, f, "schema is \"%s\", expected \"%s\"", schema, SCHEMA);
	if (!results || results->type != VK_JARRAY)
		return bad_file(cmd, f, "no \"results\" array");
	f->s = calloc(results->n ? results->n : 1, sizeof(*f->s));
	if (!f->s)
		return bad_file(cmd, f, "%s", strerror(ENOMEM));
	f->n = results->n;
	for (size_t i = 0; i < f->n; i++) {
		if (read_series(cmd, f, &results->items[i], i))
			return VK_EXIT_USAGE;
	}
	return VK_EXIT_OK;
}

static int load(const char *cmd, const char *path, struct bench_file *f)
{
	struct vk_jerr err;
	size_t len;
	char *text = read_file(cmd, path, &len);

	f->name = path;
	if (!text)
		return VK_EXIT_USAGE;
	f->doc = vk_jparse(text, len, &err);
	free(text);
	if (!f->doc) {
		fprintf(stderr, "%s: %s:%lu:%lu: not valid JSON: %s\n", cmd, path, err.line,
			err.column, err.msg);
		return VK_EXIT_USAGE;
	}
	return read_bench(cmd, f);
}

static void free_bench(struct bench_file *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->s[i].ns);
	free(f->s);
	vk_jfree(f->doc);
}

/* What should match for the two runs to be comparable. */
static const struct {
	const char *obj, *key, *what;
} same[] = {
	{ "kernel", "release", "kernels" },
	{ "kernel", "machine", "machines" },
	{ NULL, "cpu_model", "CPU models" },
};

static const char *field(const struct vk_jval *doc, const char *obj, const char *key)
{
	return vk_jstr(vk_jget(obj ? vk_jget(doc, obj) : doc, key));
}

/* A different machine is worth knowing, not a reason to refuse. */
static void warn_mismatch(const char *cmd, const struct bench_file *a, const struct bench_file *b)
{
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		const char *x = field(a->doc, same[i].obj, same[i].key);
		const char *y = field(b->doc, same[i].obj, same[i].key);

		if (x && y && strcmp(x, y))
			fprintf(stderr, "%s: warning: the runs come from different %s: %s (%s), %s (%s)\n",
				cmd, same[i].what, x, a->name, y, b->name);
	}
}

static struct series *find(struct bench_file *f, const struct series *s)
{
	for (size_t i = 0; i < f->n; i++) {
		if (!strcmp(f->s[i].api, s->api) && !strcmp(f->s[i].path, s->path))
			return &f->s[i];
	}
	return NULL;
}

static void judge(struct row *r, double threshold)
{
	r->significant = r->p < ALPHA && fabs(r->ratio - 100) > RESOLUTION_PCT;
	if (r->significant && r->ratio > 100 + threshold)
		r->verdict = "regression";
	else if (r->significant && r->ratio < 100 - threshold)
		r->verdict = "improvement";
	else
		r->verdict = "~";
}

static void measure(struct row *r, double threshold)
{
	struct series *a = r->old, *b = r->new;

	r->old_med = vk_median(a->ns, a->n);
	r->new_med = vk_median(b->ns, b->n);
	r->ratio = r->lo = r->hi = NAN;
	/* A ratio to a median of zero or less (overhead subtracted) means nothing. */
	if (r->old_med > 0) {
		r->ratio = r->new_med / r->old_med * 100;
		vk_bootstrap_ratio_ci(a->ns, a->n, b->ns, b->n, CONF, BOOT_ITERS, BOOT_SEED,
				      &r->lo, &r->hi);
		r->lo *= 100;
		r->hi *= 100;
	}
	r->p = vk_mann_whitney_p(a->ns, a->n, b->ns, b->n);
	r->shift = vk_hodges_lehmann(a->ns, a->n, b->ns, b->n);
	judge(r, threshold);
}

/* A row for each API and path with samples in both files, in OLD's order. */
static int build_rows(const char *cmd, struct compare *c)
{
	c->rows = calloc(c->old.n ? c->old.n : 1, sizeof(*c->rows));
	if (!c->rows)
		return bad_file(cmd, &c->old, "%s", strerror(ENOMEM));
	for (size_t i = 0; i < c->old.n; i++) {
		struct series *o = &c->old.s[i], *n = find(&c->new, o);
		struct row *r = &c->rows[c->nrows];

		if (!o->ns || !n || !n->ns)
			continue;
		r->old = o;
		r->new = n;
		measure(r, c->threshold);
		c->nrows++;
		c->regressions += r->verdict[0] == 'r';
		c->improvements += r->verdict[0] == 'i';
	}
	if (c->nrows)
		return VK_EXIT_OK;
	fprintf(stderr, "%s: %s and %s have no API and path with samples in both\n", cmd,
		c->old.name, c->new.name);
	return VK_EXIT_USAGE;
}

static const char *pct(char *buf, size_t size, double x)
{
	if (isfinite(x))
		snprintf(buf, size, "%.1f%%", x);
	else
		snprintf(buf, size, "n/a");
	return buf;
}

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

static void print_row(const struct row *r, int wapi, int wpath)
{
	char ratio[24], lo[24], hi[24], ci[56];

	snprintf(ci, sizeof(ci), "%s..%s", pct(lo, sizeof(lo), r->lo), pct(hi, sizeof(hi), r->hi));
	printf("%-*s  %-*s  %8.2f ns  %8.2f ns  %7s  %-15s  %-7.2g  %s%s\n", wapi, r->old->api,
	       wpath, r->old->path, r->old_med, r->new_med, pct(ratio, sizeof(ratio), r->ratio),
	       ci, r->p, r->verdict,
	       r->significant && r->verdict[0] == '~' ? " (significant)" : "");
}

static void print_text(const struct compare *c)
{
	size_t unchanged = c->nrows - c->regressions - c->improvements, significant = 0;
	size_t others = c->old.n + c->new.n - 2 * c->nrows;
	int wapi = 3, wpath = 4;

	for (size_t i = 0; i < c->nrows; i++) {
		const struct row *r = &c->rows[i];

		if ((int)strlen(r->old->api) > wapi)
			wapi = strlen(r->old->api);
		if ((int)strlen(r->old->path) > wpath)
			wpath = strlen(r->old->path);
		significant += r->significant && r->verdict[0] == '~';
	}
	printf("%-*s  %-*s  %11s  %11s  %7s  %-15s  %-7s  %s\n", wapi, "api", wpath, "path",
	       "old median", "new median", "ratio", "95% CI", "p", "verdict");
	for (size_t i = 0; i < c->nrows; i++)
		print_row(&c->rows[i], wapi, wpath);
	printf("\n%zu compared at a threshold of %g%%: %zu regression%s, %zu improvement%s, "
	       "%zu within the threshold (%zu significant)",
	       c->nrows, c->threshold, c->regressions, plural(c->regressions), c->improvements,
	       plural(c->improvements), unchanged, significant);
	if (others)
		printf("; %zu result%s not compared (skipped, or in one file only)", others,
		       plural(others));
	printf("\n");
}

static void print_json(const struct compare *c)
{
	struct vk_json j;

	vk_json_init(&j, stdout);
	vk_json_object(&j, NULL);
	vk_json_str(&j, "schema", "vdsokit-compare/1");
	vk_json_str(&j, "tool_version", vk_version);
	vk_json_str(&j, "old", c->old.name);
	vk_json_str(&j, "new", c->new.name);
	vk_json_double(&j, "threshold_pct", c->threshold);
	vk_json_double(&j, "alpha", ALPHA);
	vk_json_array(&j, "results");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct row *r = &c->rows[i];

		vk_json_object(&j, NULL);
		vk_json_str(&j, "api", r->old->api);
		vk_json_str(&j, "path", r->old->path);
		vk_json_double(&j, "old_median_ns", r->old_med);
		vk_json_double(&j, "new_median_ns", r->new_med);
		vk_json_uint(&j, "old_samples", r->old->n);
		vk_json_uint(&j, "new_samples", r->new->n);
		vk_json_double(&j, "ratio_pct", r->ratio);
		vk_json_double(&j, "ci95_low_pct", r->lo);
		vk_json_double(&j, "ci95_high_pct", r->hi);
		vk_json_double(&j, "p", r->p);
		vk_json_double(&j, "shift_ns", r->shift);
		vk_json_bool(&j, "significant", r->significant);
		vk_json_str(&j, "verdict", r->verdict);
		vk_json_end(&j);
	}
	vk_json_end(&j);
	vk_json_object(&j, "summary");
	vk_json_uint(&j, "compared", c->nrows);
	vk_json_uint(&j, "regressions", c->regressions);
	vk_json_uint(&j, "improvements", c->improvements);
	vk_json_uint(&j, "unchanged", c->nrows - c->regressions - c->improvements);
	vk_json_uint(&j, "not_compared", c->old.n + c->new.n - 2 * c->nrows);
	vk_json_end(&j);
	vk_json_end(&j);
}

static int compare(const char *cmd, struct compare *c, const char *old, const char *new, int json)
{
	int status = load(cmd, old, &c->old);

	if (!status)
		status = load(cmd, new, &c->new);
	if (!status) {
		warn_mismatch(cmd, &c->old, &c->new);
		status = build_rows(cmd, c);
	}
	if (!status) {
		if (json)
			print_json(c);
		else
			print_text(c);
		status = c->regressions ? VK_EXIT_FAIL : VK_EXIT_OK;
	}
	free(c->rows);
	free_bench(&c->old);
	free_bench(&c->new);
	return status;
}

static int parse_threshold(const char *cmd, const char *arg, double *pct_out)
{
	char *end;

	*pct_out = strtod(arg, &end);
	if (end == arg || *end || !isfinite(*pct_out) || *pct_out < 0)
		return vk_usage_error(cmd, "bad threshold '%s' (a percentage: a number >= 0)", arg);
	return VK_EXIT_OK;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "threshold", required_argument, NULL, 't' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct compare c = { .threshold = 5 };
	int json = 0, opt;

	while ((opt = getopt_long(argc, argv, "t:f:h", opts, NULL)) != -1) {
		switch (opt) {
		case 't':
			if (parse_threshold(argv[0], optarg, &c.threshold))
				return VK_EXIT_USAGE;
			break;
		case 'f':
			if (vk_parse_text_json(argv[0], optarg, &json))
				return VK_EXIT_USAGE;
			break;
		case 'h':
			fputs(usage, stdout);
			return VK_EXIT_OK;
		default:
			return vk_bad_option(argv[0]);
		}
	}
	if (argc - optind != 2)
		return vk_usage_error(argv[0], "expected two files, OLD.json and NEW.json, got %d",
				      argc - optind);
	return compare(argv[0], &c, argv[optind], argv[optind + 1], json);
}
