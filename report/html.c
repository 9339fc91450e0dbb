// SPDX-License-Identifier: MIT
/*
 * all's report as one self-contained HTML file: no script, no network,
 * charts drawn as inline SVG, so any browser shows it as it is, and so
 * does a mail or an archive of it.
 */
#include <math.h>
#include <string.h>

#include "report/compare.h"
#include "report/format.h"
#include "report/out.h"
#include "report/report.h"
#include "report/summary.h"

#define LABEL_W 300		/* room for "clock-gettime-monotonic-coarse syscall" */
#define PLOT_W 560
#define ROW_H 16

static const char *const path_color[VK_NPATHS] = {
	[VK_PATH_VDSO] = "#1b7837", [VK_PATH_LIBC] = "#2166ac",
	[VK_PATH_SYSCALL] = "#b2182b", [VK_PATH_IMPL] = "#762a83",
	[VK_PATH_VSYSCALL] = "#e08214",
};

static void esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

static void head(FILE *f, const char *version, const char *what)
{
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		   "<title>vdsokit %s %s report</title>\n<style>\n"
		   "body{font:14px/1.4 sans-serif;margin:2em;color:#222;background:#fff}\n"
		   "table{border-collapse:collapse;margin:.5em 0}\n"
		   "td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}\n"
		   ".ok{color:#1b7837}.FAIL,.ERROR{color:#b2182b;font-weight:bold}.SKIP{color:#777}\n"
		   ".userspace{background:#d9f0d3}.syscall{background:#fddbc7}.none{color:#777}\n"
		   "svg text{font:11px sans-serif}\n"
		   "pre{white-space:pre-wrap}\n</style></head><body>\n", version, what);
}

static void warnings(FILE *f, const struct vk_warnings *w)
{
	if (!w || !w->n)
		return;
	fprintf(f, "<h2>Warnings</h2>\n<ul class=\"warnings\">\n");
	for (int i = 0; i < w->n; i++) {
		fprintf(f, "<li>");
		esc(f, w->w[i].what);
		fprintf(f, " (");
		esc(f, w->w[i].detail);
		fprintf(f, "); fix: <code>");
		esc(f, w->w[i].fix);
		fprintf(f, "</code></li>\n");
	}
	fprintf(f, "</ul>\n");
}

static void machine(FILE *f, const struct vk_summary *s)
{
	const struct vk_info *in = s->info;
	const struct vk_bench_report *b = s->bench_run;
	fprintf(f, "<h2>Machine</h2>\n<table class=\"machine\">\n");
	fprintf(f, "<tr><th>kernel</th><td>");
	esc(f, in->sys.uts.sysname);
	fputc(' ', f);
	esc(f, in->sys.uts.release);
	fputc(' ', f);
	esc(f, in->sys.uts.version);
	fprintf(f, "</td></tr>\n<tr><th>architecture</th><td>");
	esc(f, in->sys.uts.machine);
	fprintf(f, "</td></tr>\n<tr><th>build</th><td>");
	esc(f, in->build_abi);
	fprintf(f, "</td></tr>\n<tr><th>clocksource</th><td>");
	esc(f, in->sys.clocksource[0] ? in->sys.clocksource : "unknown");
	fprintf(f, " (available: ");
	esc(f, in->sys.clocksources);
	fprintf(f, "); serves the vDSO: %s", vk_report_tristate(in->sys.cs_vdso));
	if (in->sys.cs_note) {
		fprintf(f, ": ");
		esc(f, in->sys.cs_note);
	}
	fprintf(f, "</td></tr>\n");
	if (b) {
		fprintf(f, "<tr><th>CPU</th><td>");
		esc(f, b->cpu_model);
		fprintf(f, "</td></tr>\n<tr><th>load average</th><td>%.2f</td></tr>\n", b->loadavg);
	}
	fprintf(f, "<tr><th>vDSO functions</th><td>");
	for (int i = 0; i < VK_NALLFUNCS; i++) {
		if (in->funcs[i].applies && in->funcs[i].f.found)
			fprintf(f, "%s ", vk_funcs[i].name);
	}
	fprintf(f, "</td></tr>\n</table>\n");
	warnings(f, s->warnings);
}

static void verdict(FILE *f, const struct vk_summary *s)
{
	fprintf(f, "<h1>vdsokit %s: <span class=\"%s\">%s</span>, %zu finding%s</h1>\n",
		s->version, vk_outcome_name(s->outcome), vk_outcome_name(s->outcome), s->findings->n,
		s->findings->n == 1 ? "" : "s");
	fprintf(f, "<table class=\"verdict\"><tr><th>command</th><th>result</th><th>passed</th>"
		   "<th>failed</th><th>skipped</th><th>seconds</th></tr>\n");
	for (size_t i = 0; i < s->nsteps; i++) {
		const struct vk_summary_step *st = &s->steps[i];

		fprintf(f, "<tr><td>%s</td><td class=\"%s\">%s</td><td>%zu</td><td>%zu</td>"
			   "<td>%zu</td><td>%.1f</td></tr>\n", st->name, vk_outcome_name(st->outcome),
			vk_outcome_name(st->outcome), st->pass, st->fail, st->skip, st->seconds);
	}
	fprintf(f, "</table>\n");
}

static void findings(FILE *f, const struct vk_summary *s)
{
	const struct vk_findings *fs = s->findings;

	fprintf(f, "<h2>Findings</h2>\n");
	if (!fs->n)
		fprintf(f, "<p>None.</p>\n");
	fprintf(f, "<ol class=\"findings\">\n");
	for (size_t i = 0; i < fs->n; i++) {
		const struct vk_finding *x = &fs->f[i];
		char clocks[160], cmd[128], cases[VK_RESULT_CASES * 40];

		vk_finding_clocks(clocks, sizeof(clocks), x);
		vk_finding_reproduce(cmd, sizeof(cmd), x);
		vk_report_cases(cases, sizeof(cases), x->example);
		fprintf(f, "<li><b>");
		esc(f, x->what);
		fprintf(f, "</b><br>%s%s%s%zu failed checks<br>e.g. <code>", clocks[0] ? "clocks " : "",
			clocks, clocks[0] ? "; " : "", x->checks);
		esc(f, x->example->api);
		fprintf(f, " %s %s: ", vk_path_name(x->example->path), x->example->check);
		esc(f, x->example->detail);
		if (cases[0]) {
			fprintf(f, " (each case that broke: ");
			esc(f, cases);
			fputc(')', f);
		}
		fprintf(f, "</code><br>reproduce: <code>");
		esc(f, cmd);
		fprintf(f, "</code></li>\n");
	}
	fprintf(f, "</ol>\n");
}

/* vdsokit's own errors, each step's, named: not the kernel's; only where any. */
static void own_errors(FILE *f, const struct vk_summary *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nsteps; i++)
		n += s->steps[i].error;
	if (!n)
		return;
	fprintf(f, "<h2>Not tested, vdsokit's own errors (%zu)</h2>\n"
		   "<p>Not the kernel's: no finding, no reproducer.</p>\n<ul class=\"ERROR\">\n", n);
	for (size_t i = 0; i < s->nsteps; i++) {
		const struct vk_results *rs = s->steps[i].rs;

		for (size_t k = 0; rs && k < rs->n; k++) {
			const struct vk_result *x = rs->r[k];

			if (x->status != VK_ERROR)
				continue;
			fprintf(f, "<li>%s: <code>", s->steps[i].name);
			esc(f, x->api);
			fprintf(f, " %s %s: ", vk_path_name(x->path), x->check);
			esc(f, x->detail);
			fprintf(f, "</code></li>\n");
		}
	}
	fprintf(f, "</ul>\n");
}

/* Failures a plain call afresh did not show again: named, no finding. */
static void unconfirmed(FILE *f, const struct vk_summary *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nsteps; i++)
		n += s->steps[i].unconfirmed;
	if (!n)
		return;
	fprintf(f, "<h2>Unconfirmed (%zu)</h2>\n"
		   "<p>Failed in this run, but not in a vdsokit exec()ed afresh: no finding, no reproducer.</p>\n<ul class=\"FAIL\">\n",
		n);
	for (size_t i = 0; i < s->nsteps; i++) {
		const struct vk_results *rs = s->steps[i].rs;

		for (size_t k = 0; rs && k < rs->n; k++) {
			const struct vk_result *x = rs->r[k];

			if (x->status != VK_FAIL || x->confirm != VK_UNCONFIRMED)
				continue;
			fprintf(f, "<li>%s: <code>", s->steps[i].name);
			esc(f, x->api);
			fprintf(f, " %s %s: ", vk_path_name(x->path), x->check);
			esc(f, x->detail);
			fprintf(f, "</code></li>\n");
		}
	}
	fprintf(f, "</ul>\n");
}

/* The log axis: whole decades around every figure shown. */
struct axis {
	double lo, hi;		/* log10 */
};

static double x_of(const struct axis *a, double v)
{
	double l = log10(v > 0 ? v : 1e-3);

	return LABEL_W + (l - a->lo) / (a->hi - a->lo) * PLOT_W;
}

static struct axis axis_of(const struct vk_bench_result *rows, size_t nrows)
{
	double lo = INFINITY, hi = -INFINITY;
	struct axis a;

	for (size_t i = 0; i < nrows; i++) {
		const struct vk_bench_result *r = &rows[i];

		if (r->skipped)
			continue;
		lo = fmin(lo, fmin(r->ci_lo, r->median));
		hi = fmax(hi, fmax(r->ci_hi, r->median));
	}
	a.lo = floor(log10(lo > 0 ? lo : 0.1));
	a.hi = ceil(log10(hi > 0 ? hi : 1));
	if (a.hi <= a.lo)
		a.hi = a.lo + 1;
	return a;
}

static void label(FILE *f, const struct vk_bench_result *r, double y)
{
	fprintf(f, "<text x=\"4\" y=\"%.1f\">%s %s</text>\n", y + 4, r->api, vk_path_name(r->path));
}

static void ns_chart(FILE *f, const struct vk_bench_result *rows, size_t nrows)
{
	struct axis a = axis_of(rows, nrows);
	size_t n = 0;

	for (size_t i = 0; i < nrows; i++)
		n += !rows[i].skipped;
	fprintf(f, "<h2>ns per call (median, 95%% CI whiskers, log scale): ");
	for (int p = 0; p < VK_NPATHS; p++)
		fprintf(f, "<span style=\"color:%s\">&#9679; %s</span> ", path_color[p], vk_path_name(p));
	fprintf(f, "</h2>\n<svg class=\"ns-chart\" xmlns=\"http://www.w3.org/2000/svg\" "
		   "width=\"%d\" height=\"%zu\">\n", LABEL_W + PLOT_W + 40, (n + 1) * ROW_H);
	for (double d = a.lo; d <= a.hi; d++) {
		double x = LABEL_W + (d - a.lo) / (a.hi - a.lo) * PLOT_W;

		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%zu\" stroke=\"#ddd\"/>"
			   "<text x=\"%.1f\" y=\"11\" text-anchor=\"middle\">%g ns</text>\n", x,
			ROW_H, x, (n + 1) * ROW_H, x, pow(10, d));
	}
	n = 0;
	for (size_t i = 0; i < nrows; i++) {
		const struct vk_bench_result *r = &rows[i];
		double y;

		if (r->skipped)
			continue;
		y = ROW_H * (n++ + 1.5);
		label(f, r, y);
		/* One process has no CI to draw. */
		if (isfinite(r->ci_lo))
			fprintf(f, "<line class=\"whisker\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				   "y2=\"%.1f\" stroke=\"%s\"/>\n", x_of(&a, r->ci_lo), y,
				x_of(&a, r->ci_hi), y, path_color[r->path]);
		fprintf(f, "<circle class=\"mark\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\">"
			   "<title>%s %s: %.1f ns", x_of(&a, r->median), y, path_color[r->path],
			r->api, vk_path_name(r->path), r->median);
		if (isfinite(r->ci_lo))
			fprintf(f, " (95%% CI %.1f-%.1f)", r->ci_lo, r->ci_hi);
		fprintf(f, "</title></circle>\n");
	}
	fprintf(f, "</svg>\n");
}

/* Each row's samples on its own linear scale, from its fastest to its
 * slowest: the shape of the distribution, not its place. */
static void dist_chart(FILE *f, const struct vk_bench_result *rows, size_t nrows)
{
	size_t n = 0;

	for (size_t i = 0; i < nrows; i++)
		n += !rows[i].skipped;
	fprintf(f, "<h2>Samples of each row (ns per call, each row from its fastest to its slowest sample)</h2>\n"
		   "<svg class=\"dist-chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%zu\">\n",
		LABEL_W + PLOT_W + 120, n * ROW_H + 4);
	n = 0;
	for (size_t i = 0; i < nrows; i++) {
		const struct vk_bench_result *r = &rows[i];
		double lo = INFINITY, hi = -INFINITY, y;

		if (r->skipped)
			continue;
		y = ROW_H * (n++ + 0.5);
		for (int k = 0; k < r->n; k++) {
			lo = fmin(lo, r->samples[k]);
			hi = fmax(hi, r->samples[k]);
		}
		label(f, r, y);
		fprintf(f, "<g class=\"row\">");
		for (int k = 0; k < r->n; k++) {
			double x = LABEL_W + (hi > lo ? (r->samples[k] - lo) / (hi - lo) : 0.5) * PLOT_W;

			fprintf(f, "<circle class=\"sample\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" "
				   "fill=\"%s\" fill-opacity=\"0.6\"/>", x, y, path_color[r->path]);
		}
		fprintf(f, "</g><text x=\"%d\" y=\"%.1f\">%.1f-%.1f ns</text>\n", LABEL_W + PLOT_W + 8,
			y + 4, lo, hi);
	}
	fprintf(f, "</svg>\n");
}

static void fallback_cell(FILE *f, const struct vk_results *rs, const char *api, enum vk_path p)
{
	for (size_t i = 0; i < rs->n; i++) {
		const struct vk_result *r = rs->r[i];
		int user;

		if (r->path != p || strcmp(r->api, api))
			continue;
		user = r->status == VK_PASS && !strcmp(r->detail, "userspace");
		fprintf(f, "<td class=\"%s\" title=\"", r->status != VK_PASS ? "none" :
			user ? "userspace" : "syscall");
		esc(f, r->detail);
		fprintf(f, "\">%s</td>", r->status != VK_PASS ? "not probed" :
			user ? "userspace" : "syscall");
		return;
	}
	fprintf(f, "<td class=\"none\">-</td>");
}

/* API by path: where each call runs, as fallback proved it. */
static void fallback_map(FILE *f, const struct vk_summary *s)
{
	const struct vk_results *rs = s->call_map;
	unsigned paths = 0;

	fprintf(f, "<h2>Fallback map: where each call runs</h2>\n");
	if (!rs) {
		fprintf(f, "<p>fallback did not run.</p>\n");
		return;
	}
	for (size_t i = 0; i < rs->n; i++)
		paths |= VK_PATH_BIT(rs->r[i]->path);
	fprintf(f, "<table class=\"fallback\"><tr><th>API</th>");
	for (int p = 0; p < VK_NPATHS; p++) {
		if (paths & VK_PATH_BIT(p))
			fprintf(f, "<th>%s</th>", vk_path_name(p));
	}
	fprintf(f, "</tr>\n");
	for (size_t i = 0; i < rs->n; i++) {
		const char *api = rs->r[i]->api;
		size_t k;

		for (k = 0; k < i && strcmp(rs->r[k]->api, api); k++)
			;
		if (k < i)
			continue;
		fprintf(f, "<tr><td>%s</td>", api);
		for (int p = 0; p < VK_NPATHS; p++) {
			if (paths & VK_PATH_BIT(p))
				fallback_cell(f, rs, api, p);
		}
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n");
}

static void summary(const struct vk_out *o, const struct vk_summary *s)
{
	FILE *f = o->f;
	const struct vk_summary_step *b = s->bench;

	head(f, s->version, "all");
	verdict(f, s);
	findings(f, s);
	unconfirmed(f, s);
	own_errors(f, s);
	if (b) {
		ns_chart(f, b->bench, b->nbench);
		dist_chart(f, b->bench, b->nbench);
	}
	fallback_map(f, s);
	machine(f, s);
	fprintf(f, "</body></html>\n");
}

static void bench_machine(FILE *f, const struct vk_bench_report *rep)
{
	fprintf(f, "<h2>Machine</h2>\n<table class=\"machine\">\n<tr><th>kernel</th><td>");
	esc(f, rep->uts.release);
	fprintf(f, " ");
	esc(f, rep->uts.machine);
	fprintf(f, "</td></tr>\n<tr><th>CPU</th><td>");
	esc(f, rep->cpu_model);
	fprintf(f, "</td></tr>\n<tr><th>clocksource</th><td>");
	esc(f, rep->clocksource);
	fprintf(f, "</td></tr>\n<tr><th>governor</th><td>");
	esc(f, rep->governor[0] ? rep->governor : "unknown");
	fprintf(f, "</td></tr>\n<tr><th>load average</th><td>%.2f</td></tr>\n"
		   "<tr><th>when</th><td>%s</td></tr>\n</table>\n", rep->loadavg, rep->time);
	warnings(f, &rep->warnings);
}

static void bench(const struct vk_out *o, const struct vk_bench_report *rep)
{
	FILE *f = o->f;

	head(f, rep->version, "bench");
	fprintf(f, "<h1>vdsokit %s bench</h1>\n", rep->version);
	ns_chart(f, rep->r, rep->n);
	dist_chart(f, rep->r, rep->n);
	bench_machine(f, rep);
	fprintf(f, "</body></html>\n");
}

static void compare_env(FILE *f, const struct vk_compare_report *c)
{
	fprintf(f, "<table class=\"environment\"><tr><th></th><th>old</th><th>new</th></tr>\n");
	fprintf(f, "<tr><th>run</th><td>");
	esc(f, c->old);
	fprintf(f, "</td><td>");
	esc(f, c->new);
	fprintf(f, "</td></tr>\n");
	for (int i = 0; i < c->nenv; i++) {
		fprintf(f, "<tr%s><th>%s</th><td>", strcmp(c->env[i].old, c->env[i].new) ?
			" class=\"FAIL\"" : "", c->env[i].what);
		esc(f, c->env[i].old);
		fprintf(f, "</td><td>");
		esc(f, c->env[i].new);
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</table>\n");
}

/* new/old in percent on a linear axis around 100%, with the CI. */
static void ratio_chart(FILE *f, const struct vk_compare_report *c)
{
	double lo = 100 - c->threshold, hi = 100 + c->threshold;

	for (size_t i = 0; i < c->nrows; i++) {
		if (isfinite(c->rows[i].lo))
			lo = fmin(lo, c->rows[i].lo);
		if (isfinite(c->rows[i].hi))
			hi = fmax(hi, c->rows[i].hi);
	}
	lo = floor(lo / 5) * 5;
	hi = ceil(hi / 5) * 5;
	fprintf(f, "<h2>new / old (median ratio, 95%% CI whiskers; the band is the threshold)</h2>\n"
		   "<svg class=\"ratio-chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		   "height=\"%zu\">\n", LABEL_W + PLOT_W + 40, (c->nrows + 1) * ROW_H);
#define RX(v) (LABEL_W + ((v) - lo) / (hi - lo) * PLOT_W)
	fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%zu\" fill=\"#eee\"/>\n",
		RX(100 - c->threshold), ROW_H, RX(100 + c->threshold) - RX(100 - c->threshold),
		c->nrows * ROW_H);
	for (double v = lo; v <= hi; v += 5)
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%zu\" stroke=\"%s\"/>"
			   "<text x=\"%.1f\" y=\"11\" text-anchor=\"middle\">%g%%</text>\n", RX(v),
			ROW_H, RX(v), (c->nrows + 1) * ROW_H, v == 100 ? "#888" : "#ddd", RX(v), v);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct vk_compare_row *r = &c->rows[i];
		const char *color = r->call == VK_CALL_REGRESSION ? "#b2182b" :
				    r->call == VK_CALL_IMPROVEMENT ? "#1b7837" : "#555";
		double y = ROW_H * (i + 1.5);

		fprintf(f, "<text x=\"4\" y=\"%.1f\">%s %s</text>\n", y + 4, r->old->api, r->old->path);
		if (isfinite(r->lo) && isfinite(r->hi))
			fprintf(f, "<line class=\"whisker\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				   "y2=\"%.1f\" stroke=\"%s\"/>\n", RX(r->lo), y, RX(r->hi), y, color);
		fprintf(f, "<circle class=\"mark\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\">"
			   "<title>%s %s: %.1f%% (%s)</title></circle>\n", RX(r->ratio), y, color,
			r->old->api, r->old->path, r->ratio, r->verdict);
	}
#undef RX
	fprintf(f, "</svg>\n");
}

static void compare(const struct vk_out *o, const struct vk_compare_report *c)
{
	FILE *f = o->f;
	char line[VK_COMPARE_ONELINE];

	head(f, c->version, "compare");
	fprintf(f, "<h1>vdsokit compare: %s\n</h1>\n",
		vk_report_compare_oneline(line, sizeof(line), c));
	compare_env(f, c);
	ratio_chart(f, c);
	fprintf(f, "<table class=\"rows\"><tr><th>API</th><th>path</th><th>old (ns)</th>"
		   "<th>new (ns)</th><th>new/old</th><th>p</th><th>verdict</th></tr>\n");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct vk_compare_row *r = &c->rows[i];

		fprintf(f, "<tr><td>%s</td><td>%s</td><td>%.2f</td><td>%.2f</td><td>%.1f%%</td>"
			   "<td>%.2g</td><td>%s</td></tr>\n", r->old->api, r->old->path, r->old_med,
			r->new_med, r->ratio, r->p, r->verdict);
	}
	for (size_t i = 0; i < c->nfailed; i++)
		fprintf(f, "<tr><td>%s</td><td>%s</td><td colspan=\"5\">no figure, no verdict: on the %s side, %s</td></tr>\n",
			c->failed[i].api, c->failed[i].path, c->failed[i].side, c->failed[i].why);
	fprintf(f, "</table>\n</body></html>\n");
}

const struct vk_formatter vk_formatter_html = {
	.name = "html", .bench = bench, .compare = compare, .summary = summary,
};
