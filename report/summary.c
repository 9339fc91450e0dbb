// SPDX-License-Identifier: MIT
/*
 * Prints all's summary (core/summary) in each format, knowing no step by
 * its name.
 */
#include <math.h>

#include "report/doc.h"
#include "report/out.h"
#include "report/report.h"
#include "report/safe.h"
#include "report/summary.h"

/* Of vdsokit's own errors, how many the text names one by one. */
#define VK_SHOWN_ERRORS 8

const char *vk_outcome_name(enum vk_outcome o)
{
	static const char *const name[] = { [VK_OUTCOME_OK] = "ok", [VK_OUTCOME_FAIL] = "FAIL",
					    [VK_OUTCOME_SKIP] = "SKIP", [VK_OUTCOME_ERROR] = "ERROR" };

	return name[o];
}

static void header(FILE *f, const struct vk_summary *s)
{
	const struct vk_info *in = s->info;
	const struct vk_sysinfo *si = &in->sys;

	fprintf(f, "vdsokit %s: the vDSO of this machine\n", s->version);
	fprintf(f, "kernel       %s %s %s\n", vk_safe(si->uts.sysname),
		vk_safe(si->uts.release), vk_safe(si->uts.machine));
	fprintf(f, "build        %s\n", in->build_abi);
	fprintf(f, "clocksource  %s: %s%s%s\n", si->clocksource[0] ? vk_safe(si->clocksource) : "unknown",
		si->cs_vdso == VK_YES ? "serves the vDSO" :
		si->cs_vdso == VK_NO ? "does not serve the vDSO" : "vDSO use unknown",
		si->cs_note ? ", " : "", si->cs_note ? vk_safe(si->cs_note) : "");
	fprintf(f, "vDSO         ");
	if (!in->size) {
		fprintf(f, "none: %s\n", in->no_image ? in->no_image : "not found");
		return;
	}
	for (int i = 0, n = 0; i < VK_NFUNCS; i++) {
		if (in->funcs[i].applies && in->funcs[i].f.found)
			fprintf(f, "%s%s", n++ ? " " : "", vk_funcs[i].name);
	}
	fputc('\n', f);
}

static void steps(FILE *f, const struct vk_summary *s)
{
	fprintf(f, "\n%-10s %-6s %7s %7s %7s %8s\n", "command", "result", "passed", "failed",
		"skipped", "seconds");
	for (size_t i = 0; i < s->nsteps; i++) {
		const struct vk_summary_step *st = &s->steps[i];

		fprintf(f, "%-10s %-6s %7zu %7zu %7zu %8.1f", st->name, vk_outcome_name(st->outcome),
			st->pass, st->fail, st->skip, st->seconds);
		if (st->note)
			fprintf(f, "  %s", st->note);
		fputc('\n', f);
	}
}

static void finding(FILE *f, size_t i, const struct vk_finding *x)
{
	char clocks[160], cmd[128], cases[VK_RESULT_CASES * 40];

	vk_finding_clocks(clocks, sizeof(clocks), x);
	vk_finding_reproduce(cmd, sizeof(cmd), x);
	fprintf(f, "%zu. %s\n   ", i + 1, x->what);
	if (clocks[0])
		fprintf(f, "clocks %s, ", clocks);
	fprintf(f, "paths");
	for (int p = 0, n = 0; p < VK_NPATHS; p++) {
		if (x->paths & VK_PATH_BIT(p))
			fprintf(f, "%s%s", n++ ? ", " : " ", vk_path_name(p));
	}
	fprintf(f, ": %zu failed checks (", x->checks);
	for (int k = 0; k < x->nby; k++)
		fprintf(f, "%s%s %zu", k ? ", " : "", x->by[k].command, x->by[k].checks);
	vk_report_cases(cases, sizeof(cases), x->example);
	fprintf(f, ")\n   e.g. %s %s %s: %s", x->example->api, vk_path_name(x->example->path),
		x->example->check, vk_safe(x->example->detail));
	if (cases[0])
		fprintf(f, " (each case that broke: %s)", cases);
	fprintf(f, "\n   reproduce: %s\n", cmd);
}

static void findings(FILE *f, const struct vk_summary *s)
{
	const struct vk_findings *fs = s->findings;

	if (!fs->n)
		return;
	fprintf(f, "\nFindings (%zu):\n", fs->n);
	for (size_t i = 0; i < fs->n; i++)
		finding(f, i, &fs->f[i]);
	if (fs->unsorted)
		fprintf(f, "and %zu more failed checks: see --verbose\n", fs->unsorted);
}

/* vdsokit's own errors, each step's, named: they are not the kernel's. */
static void own_errors(FILE *f, const struct vk_summary *s)
{
	size_t n = 0, shown = 0;

	for (size_t i = 0; i < s->nsteps; i++)
		n += s->steps[i].error;
	if (!n)
		return;
	fprintf(f, "\nNot tested, vdsokit's own errors (%zu; not the kernel's, no reproducer):\n", n);
	for (size_t i = 0; i < s->nsteps; i++) {
		const struct vk_results *rs = s->steps[i].rs;

		for (size_t k = 0; rs && k < rs->n; k++) {
			const struct vk_result *x = rs->r[k];

			if (x->status != VK_ERROR || shown++ >= VK_SHOWN_ERRORS)
				continue;
			fprintf(f, "- %s: %s %s %s: %s\n", s->steps[i].name, x->api,
				vk_path_name(x->path), x->check, vk_safe(x->detail));
		}
	}
	if (n > VK_SHOWN_ERRORS)
		fprintf(f, "and %zu more: see --verbose\n", n - VK_SHOWN_ERRORS);
}

/* Failures not made again afresh, each step's, named: no finding. */
static void unconfirmed(FILE *f, const struct vk_summary *s)
{
	size_t n = 0, shown = 0;

	for (size_t i = 0; i < s->nsteps; i++)
		n += s->steps[i].unconfirmed;
	if (!n)
		return;
	fprintf(f, "\nUnconfirmed (%zu; failed in this run, but not in a vdsokit exec()ed afresh: no finding, no reproducer):\n",
		n);
	for (size_t i = 0; i < s->nsteps; i++) {
		const struct vk_results *rs = s->steps[i].rs;

		for (size_t k = 0; rs && k < rs->n; k++) {
			const struct vk_result *x = rs->r[k];

			if (x->status != VK_FAIL || x->confirm != VK_UNCONFIRMED ||
			    shown++ >= VK_SHOWN_ERRORS)
				continue;
			fprintf(f, "- %s: %s %s %s: %s\n", s->steps[i].name, x->api,
				vk_path_name(x->path), x->check, vk_safe(x->detail));
		}
	}
	if (n > VK_SHOWN_ERRORS)
		fprintf(f, "and %zu more: see --verbose\n", n - VK_SHOWN_ERRORS);
}

static void ns(FILE *f, double v)
{
	if (isnan(v))
		fprintf(f, " %8s", "-");
	else
		fprintf(f, " %8.1f", v);
}

static void bench(FILE *f, const struct vk_summary *s)
{
	if (!s->nhead)
		return;
	fprintf(f, "\n%-31s %8s %8s %8s  %s\n", "bench: ns per call, unpreempted", "vdso", "libc",
		"syscall", "vdso vs syscall");
	for (size_t i = 0; i < s->nhead; i++) {
		const struct vk_headline *h = &s->head[i];

		fprintf(f, "%-31s", h->api);
		ns(f, h->ns[VK_PATH_VDSO]);
		ns(f, h->ns[VK_PATH_LIBC]);
		ns(f, h->ns[VK_PATH_SYSCALL]);
		if (!isnan(h->faster))
			fprintf(f, "  %.1fx faster", h->faster);
		fputc('\n', f);
	}
}

static void warnings(FILE *f, const struct vk_summary *s)
{
	if (!s->warnings || !s->warnings->n)
		return;
	fprintf(f, "\nWarnings (the figures may not hold elsewhere):\n");
	for (int i = 0; i < s->warnings->n; i++) {
		const struct vk_warning *w = &s->warnings->w[i];

		fprintf(f, "- %s (%s); fix: %s\n", w->what, vk_safe(w->detail), w->fix);
	}
}

static void verdict(FILE *f, const struct vk_summary *s)
{
	size_t n = s->findings->n, u = 0;

	fprintf(f, "\nVerdict: %s: ", vk_outcome_name(s->outcome));
	for (size_t i = 0; i < s->nsteps; i++)
		u += s->steps[i].unconfirmed;
	if (n)
		fprintf(f, "%zu finding%s", n, n == 1 ? "" : "s");
	else
		fprintf(f, "no finding");
	if (u)
		fprintf(f, ", %zu unconfirmed failure%s", u, u == 1 ? "" : "s");
	if (s->unverified)
		fprintf(f, "; %d functions had no result", s->unverified);
	else
		fprintf(f, "; every API verified");
	fprintf(f, ". 'vdsokit all --verbose' prints every result.\n");
}

void vk_report_summary_text(const struct vk_out *o, const struct vk_summary *s)
{
	FILE *f = o->f;

	header(f, s);
	steps(f, s);
	findings(f, s);
	unconfirmed(f, s);
	own_errors(f, s);
	bench(f, s);
	warnings(f, s);
	verdict(f, s);
}
