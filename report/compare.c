// SPDX-License-Identifier: MIT
/* Prints compare's rows as core/bench/compare.c judged them, in each format. */
#include <math.h>
#include <string.h>

#include "report/compare.h"
#include "report/doc.h"
#include "report/out.h"
#include "report/safe.h"

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

/* A verdict given although the machine moved: how far beyond its move. */
const char *vk_report_compare_beyond(char *buf, size_t size, const struct vk_compare_row *r)
{
	buf[0] = 0;
	if (isfinite(r->beyond))
		snprintf(buf, size, " (%+.1f%% beyond the machine's own %+.1f%%)", r->beyond,
			 r->machine_move);
	return buf;
}

/* A side's --threads scaling, or why none: its threads did not run at once. */
static const char *scaling(char *buf, size_t size, double x)
{
	if (isnan(x))
		return "not judged";
	snprintf(buf, size, "%.2f", x);
	return buf;
}

static void print_row(FILE *f, const struct vk_compare_row *r, int wapi, int wpath)
{
	char ratio[24], lo[24], hi[24], ci[56], note[80], so[24], sn[24];

	snprintf(ci, sizeof(ci), "%s..%s", pct(lo, sizeof(lo), r->lo), pct(hi, sizeof(hi), r->hi));
	fprintf(f, "%-*s  %-*s  %8.2f ns  %8.2f ns  %7s  %-15s  %-7.2g  %s%s%s\n", wapi,
		vk_safe(r->old->api), wpath, vk_safe(r->old->path), r->old_med, r->new_med,
		pct(ratio, sizeof(ratio), r->ratio), ci, r->p, r->verdict,
		r->significant && r->call == VK_CALL_UNCHANGED ? " (significant)" : "",
		vk_report_compare_beyond(note, sizeof(note), r));
	/* bench --threads on both sides: the scaling too, not judged. */
	if (r->old->threads && r->new->threads)
		fprintf(f, "  %-*s  scaling %s at %d threads -> %s at %d\n", wapi, "",
			scaling(so, sizeof(so), r->old->scaling), r->old->threads,
			scaling(sn, sizeof(sn), r->new->scaling), r->new->threads);
}

const char *vk_report_compare_oneline(char *buf, size_t size, const struct vk_compare_report *c)
{
	char more[80] = "";
	size_t at = 0;

	if (c->no_verdict)
		at += snprintf(more, sizeof(more), ", %zu without a verdict", c->no_verdict);
	if (c->nfailed)
		snprintf(more + at, sizeof(more) - at, ", %zu failed", c->nfailed);
	snprintf(buf, size, "%zu faster, %zu slower, %zu unchanged%s; geometric mean %.3f",
		 c->improvements, c->regressions, c->unchanged, more, c->geomean);
	return buf;
}

/* The reference loops in each file: how far the machine's own speed moved. */
static void reference(FILE *f, const struct vk_compare_report *c)
{
	if (c->interleaved)
		return;
	if (!isfinite(c->machine.cpu_ratio)) {
		fprintf(f, "reference    unknown (a file has no reference loop): a change of the machine's speed cannot be told\n\n");
		return;
	}
	fprintf(f, "reference    %.3f -> %.3f ns per step, %.1f%%: %s\n", c->ref_old, c->ref_new,
		c->machine.cpu_ratio,
		c->machine_moved ? "the machine's own speed moved beyond the threshold; no verdicts"
				 : "the machine's own speed held");
	if (isfinite(c->machine.loads_ratio))
		fprintf(f, "loads        %.3f -> %.3f ns per load, %.1f%%: %s\n", c->loads_old,
			c->loads_new, c->machine.loads_ratio,
			c->loads_moved ? "the core's loads moved beyond the threshold; no verdicts on calls of a few loads"
				       : "the core's loads held");
	if (isfinite(c->machine.sys_ratio))
		fprintf(f, "syscall      %.1f -> %.1f ns (getppid), %.1f%%: %s\n", c->sys_old,
			c->sys_new, c->machine.sys_ratio,
			c->syscall_moved ? "the kernel's entry and exit moved beyond the threshold; no verdicts on calls that cost a syscall"
					 : "the kernel's entry and exit held");
	if (c->beyond_machine)
		fprintf(f, "but %zu row%s moved further than the machine, by more than the threshold: %s verdict%s stand%s\n",
			c->beyond_machine, plural(c->beyond_machine),
			c->beyond_machine == 1 ? "its" : "their", plural(c->beyond_machine),
			c->beyond_machine == 1 ? "s" : "");
	fputc('\n', f);
}

/* The two files' environments, a line each: the value, or old -> new. */
static void env_diff(FILE *f, const struct vk_compare_report *c)
{
	if (!c->nenv)
		return;
	fprintf(f, "old: %s\nnew: %s\n", vk_safe(c->old), vk_safe(c->new));
	for (int i = 0; i < c->nenv; i++) {
		const struct vk_env_field *e = &c->env[i];

		if (strcmp(e->old, e->new))
			fprintf(f, "%-12s %s -> %s (differs)\n", e->what, vk_safe(e->old),
				vk_safe(e->new));
		else
			fprintf(f, "%-12s %s\n", e->what, vk_safe(e->old));
	}
	fputc('\n', f);
}

void vk_report_compare_text(const struct vk_out *o, const struct vk_compare_report *c)
{
	FILE *f = o->f;
	char line[VK_COMPARE_ONELINE];
	int wapi = 3, wpath = 4;

	if (c->interleaved)
		fprintf(f, "old: %s\nnew: %s\n(measured in turn in one process, each library loaded %d time%s)\n\n",
			vk_safe(c->old), vk_safe(c->new), c->copies, plural(c->copies));
	env_diff(f, c);
	reference(f, c);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct vk_compare_row *r = &c->rows[i];

		if ((int)strlen(vk_safe(r->old->api)) > wapi)
			wapi = strlen(vk_safe(r->old->api));
		if ((int)strlen(vk_safe(r->old->path)) > wpath)
			wpath = strlen(vk_safe(r->old->path));
	}
	for (size_t i = 0; i < c->nfailed; i++) {
		if ((int)strlen(vk_safe(c->failed[i].api)) > wapi)
			wapi = strlen(vk_safe(c->failed[i].api));
		if ((int)strlen(vk_safe(c->failed[i].path)) > wpath)
			wpath = strlen(vk_safe(c->failed[i].path));
	}
	fprintf(f, "%-*s  %-*s  %11s  %11s  %7s  %-15s  %-7s  %s\n", wapi, "api", wpath, "path",
		"old median", "new median", "ratio", "95% CI", "p", "verdict");
	for (size_t i = 0; i < c->nrows; i++)
		print_row(f, &c->rows[i], wapi, wpath);
	for (size_t i = 0; i < c->nfailed; i++)
		fprintf(f, "%-*s  %-*s  no figure, no verdict: on the %s side, %s\n", wapi,
			vk_safe(c->failed[i].api), wpath, vk_safe(c->failed[i].path), c->failed[i].side,
			c->failed[i].why);
	fprintf(f, "\n%zu compared at a threshold of %g%%: %zu regression%s, %zu improvement%s, "
		"%zu within the threshold (%zu significant)",
		c->nrows, c->threshold, c->regressions, plural(c->regressions), c->improvements,
		plural(c->improvements), c->unchanged, c->significant_within);
	if (c->no_verdict)
		fprintf(f, "; %zu without a verdict", c->no_verdict);
	if (c->not_compared)
		fprintf(f, "; %zu result%s not compared (skipped, or on one side only)",
			c->not_compared, plural(c->not_compared));
	if (c->nfailed)
		fprintf(f, "; %zu failed: no figure, no verdict", c->nfailed);
	fprintf(f, "\n%s\n", vk_report_compare_oneline(line, sizeof(line), c));
}

static void json_options(struct vk_json *j, const void *ctx)
{
	const struct vk_compare_report *c = ctx;

	vk_json_double(j, "threshold_pct", c->threshold);
}

/* The compared runs' environments: each setting, old and new. */
static void json_environments(struct vk_json *j, const struct vk_compare_report *c)
{
	vk_json_object(j, "environments");
	for (int i = 0; i < c->nenv; i++) {
		vk_json_object(j, c->env[i].key);
		vk_json_str(j, "old", c->env[i].old);
		vk_json_str(j, "new", c->env[i].new);
		vk_json_end(j);
	}
	vk_json_end(j);
}

/* The rows whose calls failed on a side, or that crashed: no figure, no verdict. */
static void json_failed(struct vk_json *j, const struct vk_compare_report *c)
{
	vk_json_array(j, "failed");
	for (size_t i = 0; i < c->nfailed; i++) {
		vk_json_object(j, NULL);
		vk_json_str(j, "api", c->failed[i].api);
		vk_json_str(j, "path", c->failed[i].path);
		vk_json_str(j, "side", c->failed[i].side);
		vk_json_str(j, "why", c->failed[i].why);
		vk_json_end(j);
	}
	vk_json_end(j);
}

void vk_report_compare_json(const struct vk_out *o, const struct vk_compare_report *c)
{
	FILE *f = o->f;
	const struct vk_envelope d = { .command = "compare", .version = VK_COMPARE_VERSION,
				  .tool_version = c->version, .sys = c->sys, .options = json_options,
				  .ctx = c };
	struct vk_json j;

	vk_json_init(&j, f);
	vk_doc_begin(&j, NULL, &d);
	vk_json_str(&j, "old", c->old);
	vk_json_str(&j, "new", c->new);
	vk_json_bool(&j, "interleaved", c->interleaved);
	vk_json_double(&j, "alpha", VK_COMPARE_ALPHA);
	if (!c->interleaved) {
		vk_json_uint(&j, "old_runs", c->old_runs);
		vk_json_uint(&j, "new_runs", c->new_runs);
		vk_json_object(&j, "reference");
		vk_json_double(&j, "old_ns_per_step", c->ref_old);
		vk_json_double(&j, "new_ns_per_step", c->ref_new);
		vk_json_double(&j, "ratio_pct", c->machine.cpu_ratio);
		vk_json_bool(&j, "machine_moved", c->machine_moved);
		vk_json_double(&j, "old_loads_ns", c->loads_old);
		vk_json_double(&j, "new_loads_ns", c->loads_new);
		vk_json_double(&j, "loads_ratio_pct", c->machine.loads_ratio);
		vk_json_bool(&j, "loads_moved", c->loads_moved);
		vk_json_double(&j, "old_syscall_ns", c->sys_old);
		vk_json_double(&j, "new_syscall_ns", c->sys_new);
		vk_json_double(&j, "syscall_ratio_pct", c->machine.sys_ratio);
		vk_json_bool(&j, "syscall_moved", c->syscall_moved);
		vk_json_end(&j);
	}
	vk_json_array(&j, "results");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct vk_compare_row *r = &c->rows[i];

		vk_json_object(&j, NULL);
		vk_json_str(&j, "api", r->old->api);
		vk_json_str(&j, "path", r->old->path);
		vk_json_double(&j, "old_median_ns", r->old_med);
		vk_json_double(&j, "new_median_ns", r->new_med);
		vk_json_uint(&j, "old_samples", r->old->n);
		vk_json_uint(&j, "new_samples", r->new->n);
		vk_json_uint(&j, "old_groups", r->old->ngroups);
		vk_json_uint(&j, "new_groups", r->new->ngroups);
		vk_json_double(&j, "ratio_pct", r->ratio);
		vk_json_double(&j, "ci95_low_pct", r->lo);
		vk_json_double(&j, "ci95_high_pct", r->hi);
		vk_json_double(&j, "p", r->p);
		vk_json_double(&j, "shift_ns", r->shift);
		vk_json_bool(&j, "significant", r->significant);
		vk_json_str(&j, "verdict", r->verdict);
		if (isfinite(r->beyond)) {
			vk_json_double(&j, "beyond_machine_pct", r->beyond);
			vk_json_double(&j, "machine_move_pct", r->machine_move);
		}
		vk_json_end(&j);
	}
	vk_json_end(&j);
	if (c->nfailed)
		json_failed(&j, c);
	vk_json_object(&j, "summary");
	vk_json_uint(&j, "compared", c->nrows);
	vk_json_uint(&j, "regressions", c->regressions);
	vk_json_uint(&j, "improvements", c->improvements);
	vk_json_uint(&j, "unchanged", c->unchanged);
	vk_json_uint(&j, "no_verdict", c->no_verdict);
	vk_json_uint(&j, "not_compared", c->not_compared);
	vk_json_double(&j, "geomean", c->geomean);
	vk_json_end(&j);
	json_environments(&j, c);
	vk_json_end(&j);
}
