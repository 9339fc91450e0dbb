// SPDX-License-Identifier: MIT
/*
 * The OpenMetrics text exposition, which Prometheus and node_exporter's
 * textfile collector read: a gauge per check count and finding, per
 * function's or API's userspace-or-syscall state and per bench median.
 * Each family is announced once (# HELP, # TYPE) before its samples, no
 * series repeats, label values are escaped, and "# EOF" ends it.
 */
#include <stdarg.h>
#include <string.h>

#include "core/result/findings.h"
#include "report/bench.h"
#include "report/format.h"
#include "report/info.h"
#include "report/out.h"
#include "report/report.h"
#include "report/summary.h"

struct family {
	const char *name, *help;
};

static const struct family checks = { "vdsokit_checks", "Checks of a command by result." };
static const struct family findings = { "vdsokit_findings", "Distinct findings of vdsokit all." };
static const struct family finding_checks = {
	"vdsokit_finding_failed_checks", "Failed checks of one finding, every command together."
};
static const struct family exported = {
	"vdsokit_function_exported",
	"1 if the vDSO exports the function under the version libc asks for."
};
static const struct family function_userspace = {
	"vdsokit_function_userspace",
	"1 if a call of the function stays in userspace, 0 if it makes a syscall."
};
static const struct family api_userspace = {
	"vdsokit_api_userspace",
	"1 if the API on the path stays in userspace, 0 if it makes a syscall."
};
static const struct family median = {
	"vdsokit_bench_median_seconds", "Median time per call of the API on the path."
};

/* The family whose samples print now: its header comes before the first. */
struct om {
	FILE *f;
	const struct family *current;
};

/* A label value: backslash, double quote and newline escaped. */
static void label_value(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

/* One sample of fam: value, then label names and values, NULL-ended. */
static void sample(struct om *o, const struct family *fam, double value, ...)
{
	const char *name, *sep = "{";
	va_list ap;

	if (o->current != fam)
		fprintf(o->f, "# HELP %s %s\n# TYPE %s gauge\n", fam->name, fam->help, fam->name);
	o->current = fam;
	fputs(fam->name, o->f);
	va_start(ap, value);
	while ((name = va_arg(ap, const char *))) {
		fprintf(o->f, "%s%s=\"", sep, name);
		label_value(o->f, va_arg(ap, const char *));
		fputc('"', o->f);
		sep = ",";
	}
	va_end(ap);
	fprintf(o->f, "%s %.9g\n", *sep == ',' ? "}" : "", value);
}

static void result_checks(struct om *o, const char *command, const struct vk_results *rs)
{
	struct vk_tally t = vk_results_tally(rs);

	sample(o, &checks, t.pass, "command", command, "result", "pass", NULL);
	sample(o, &checks, t.fail, "command", command, "result", "fail", NULL);
	sample(o, &checks, t.skip, "command", command, "result", "skip", NULL);
	sample(o, &checks, t.error, "command", command, "result", "error", NULL);
}

static void step_checks(struct om *o, const struct vk_summary *s)
{
	for (size_t i = 0; i < s->nsteps; i++) {
		const struct vk_summary_step *st = &s->steps[i];

		sample(o, &checks, st->pass, "command", st->name, "result", "pass", NULL);
		sample(o, &checks, st->fail, "command", st->name, "result", "fail", NULL);
		sample(o, &checks, st->skip, "command", st->name, "result", "skip", NULL);
		sample(o, &checks, st->error, "command", st->name, "result", "error", NULL);
	}
}

static void finding_counts(struct om *o, const struct vk_findings *fs)
{
	char n[24];

	sample(o, &findings, fs->n, NULL);
	for (size_t i = 0; i < fs->n; i++) {
		snprintf(n, sizeof(n), "%zu", i + 1);
		sample(o, &finding_checks, fs->f[i].checks, "finding", n, "what", fs->f[i].what, NULL);
	}
}

static void functions(struct om *o, const struct vk_info *in)
{
	for (int i = 0; i < VK_NALLFUNCS; i++) {
		if (in->funcs[i].applies)
			sample(o, &exported, in->funcs[i].f.found != 0, "function", vk_funcs[i].name,
			       NULL);
	}
	for (int i = 0; i < VK_NFUNCS; i++) {
		enum vk_ran ran = in->funcs[i].ran;

		if (in->funcs[i].applies && ran != VK_RAN_UNKNOWN)
			sample(o, &function_userspace, ran == VK_RAN_USERSPACE, "function",
			       vk_funcs[i].name, NULL);
	}
}

/* fallback's answers, a required call's fallback among them; those it
 * could not give have no sample. */
static void api_states(struct om *o, const struct vk_results *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		const struct vk_result *r = rs->r[i];

		if (r->ran != VK_RAN_UNKNOWN)
			sample(o, &api_userspace, r->ran == VK_RAN_USERSPACE, "api", r->api, "path",
			       vk_path_name(r->path), NULL);
	}
}

static void medians(struct om *o, const struct vk_bench_result *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!r[i].skipped)
			sample(o, &median, r[i].median * 1e-9, "api", r[i].api, "path",
			       vk_path_name(r[i].path), NULL);
	}
}

static void summary_gauges(struct om *o, const struct vk_summary *s)
{
	step_checks(o, s);
	finding_counts(o, s->findings);
	if (s->info->size)
		functions(o, s->info);
	if (s->call_map)
		api_states(o, s->call_map);
	for (size_t i = 0; i < s->nsteps; i++)
		medians(o, s->steps[i].bench, s->steps[i].nbench);
}

/* Each kind's gauges, then the end. */
static void results(const struct vk_out *out, const struct vk_report *r)
{
	struct om o = { .f = out->f };

	result_checks(&o, r->command, r->rs);
	api_states(&o, r->rs);
	fputs("# EOF\n", o.f);
}

static void bench(const struct vk_out *out, const struct vk_bench_report *r)
{
	struct om o = { .f = out->f };

	medians(&o, r->r, r->n);
	fputs("# EOF\n", o.f);
}

static void info(const struct vk_out *out, const struct vk_info *in)
{
	struct om o = { .f = out->f };

	functions(&o, in);
	fputs("# EOF\n", o.f);
}

static void summary(const struct vk_out *out, const struct vk_summary *s)
{
	struct om o = { .f = out->f };

	summary_gauges(&o, s);
	fputs("# EOF\n", o.f);
}

const struct vk_formatter vk_formatter_openmetrics = {
	.name = "openmetrics", .results = results, .bench = bench, .info = info, .summary = summary,
};
