// SPDX-License-Identifier: MIT
/*
 * KTAP: the writer, the only code that spells KTAP's lines, so that every
 * command's KTAP is the same grammar (ktap.h); then every kind of
 * document in KTAP, and the format's row.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "core/result/findings.h"
#include "report/bench.h"
#include "report/compare.h"
#include "report/doc.h"
#include "report/format.h"
#include "report/info.h"
#include "report/inspect.h"
#include "report/ktap.h"
#include "report/report.h"
#include "report/safe.h"
#include "report/summary.h"

/* One line at o's depth: lead, fmt's text, then a directive and its reason. */
static void line(const struct vk_out *o, const char *lead, const char *directive, const char *why,
		 const char *fmt, va_list ap)
{
	fprintf(o->f, "%*s%s", 2 * o->depth, "", lead);
	vfprintf(o->f, fmt, ap);
	fprintf(o->f, "%s%s\n", directive, why);
}

static void put(const struct vk_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void put(const struct vk_out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line(o, "", "", "", fmt, ap);
	va_end(ap);
}

void vk_ktap_header(const struct vk_out *o)
{
	put(o, "KTAP version 1");
	if (o->depth)
		put(o, "# Subtest: %s", o->name);
}

void vk_ktap_plan(const struct vk_out *o, size_t n)
{
	put(o, "1..%zu", n);
}

/* " WHY" for ERROR's reason, in a buffer of its own. */
static const char *sep_why(const char *why)
{
	static char buf[800];

	snprintf(buf, sizeof(buf), " %s", why);
	return buf;
}

void vk_ktap_result(const struct vk_out *o, enum vk_ktap_result r, size_t n, const char *why,
		    const char *fmt, ...)
{
	const char *ok = r == VK_KTAP_FAIL || r == VK_KTAP_ERROR ? "not ok" : "ok";
	char lead[32];
	va_list ap;

	snprintf(lead, sizeof(lead), "%s %zu ", ok, n);
	va_start(ap, fmt);
	line(o, lead, r == VK_KTAP_SKIP ? " # SKIP " : r == VK_KTAP_ERROR ? " # ERROR" : "",
	     r == VK_KTAP_SKIP ? why : r == VK_KTAP_ERROR && why && *why ? sep_why(why) : "", fmt,
	     ap);
	va_end(ap);
}

void vk_ktap_diag(const struct vk_out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line(o, "# ", "", "", fmt, ap);
	va_end(ap);
}

void vk_ktap_totals(const struct vk_out *o, size_t pass, size_t fail, size_t skip, size_t error)
{
	put(o, "# Totals: pass:%zu fail:%zu xfail:0 xpass:0 skip:%zu error:%zu", pass, fail, skip,
	    error);
}

void vk_ktap_skip_all(const struct vk_out *o, const char *why)
{
	vk_ktap_header(o);
	put(o, "1..0 # SKIP %s", why);
}

struct vk_out vk_ktap_subtest(const struct vk_out *o, const char *name)
{
	struct vk_out sub = *o;

	sub.depth++;
	sub.name = name;
	return sub;
}

/* The documents, each kind in KTAP. */

static void results(const struct vk_out *k, const struct vk_report *r)
{
	static const enum vk_ktap_result as[] = {
		[VK_PASS] = VK_KTAP_PASS, [VK_FAIL] = VK_KTAP_FAIL, [VK_SKIP] = VK_KTAP_SKIP,
		[VK_ERROR] = VK_KTAP_ERROR
	};
	struct vk_tally t = vk_results_tally(r->rs);

	vk_ktap_header(k);
	vk_ktap_diag(k, "vdsokit %s %s", r->version, r->command);
	vk_ktap_plan(k, r->rs->n);
	for (size_t i = 0; i < r->rs->n; i++) {
		const struct vk_result *x = r->rs->r[i];
		char how[VK_RESULT_CASES * 40 + 64];

		vk_report_broken(how, sizeof(how), x);
		vk_ktap_result(k, as[x->status], i + 1, vk_safe(x->detail), "%s %s %s", x->api,
			       vk_path_name(x->path), x->check);
		if (x->status == VK_FAIL)
			vk_ktap_diag(k, "%s%s", vk_safe(x->detail), how);
		else if (x->status == VK_PASS && x->detail[0])
			vk_ktap_diag(k, "%s", vk_safe(x->detail));
	}
	if (r->stopped)
		vk_ktap_diag(k, "checks whose repeats --max-fails cut short: %zu",
			     vk_results_cut(r->rs));
	if (t.unconfirmed)
		vk_ktap_diag(k, "unconfirmed: %zu failed checks failed in this run, but not in a vdsokit exec()ed afresh: no finding, no reproducer",
			     t.unconfirmed);
	vk_ktap_totals(k, t.pass, t.fail, t.skip, t.error);
	if (r->ktap_more)
		r->ktap_more(k, r->ctx);
}

static void bench(const struct vk_out *k, const struct vk_bench_report *rep)
{
	vk_ktap_header(k);
	vk_ktap_diag(k, "vdsokit %s bench", rep->version);
	vk_ktap_plan(k, rep->n);
	for (size_t i = 0; i < rep->n; i++) {
		const struct vk_bench_result *r = &rep->r[i];

		vk_ktap_result(k, r->failed || r->crashed ? VK_KTAP_FAIL :
				  r->own_error ? VK_KTAP_ERROR :
				  r->skipped ? VK_KTAP_SKIP : VK_KTAP_PASS,
			       i + 1, r->skipped, "%s %s", r->api, vk_path_name(r->path));
		if (r->failed || r->crashed)
			vk_ktap_diag(k, "%s", r->skipped);
		if (r->skipped)
			continue;
		if (isfinite(r->ci_lo))
			vk_ktap_diag(k, "median %.1f ns/call, min %.1f, 95%% CI %.1f-%.1f, CV %.1f%%, %d samples, %d processes",
				     r->median, r->min, r->ci_lo, r->ci_hi, r->cv, r->n, r->ngroups);
		else
			vk_ktap_diag(k, "median %.1f ns/call, min %.1f, %d samples, one process: no CI",
				     r->median, r->min, r->n);
	}
}

static void compare(const struct vk_out *k, const struct vk_compare_report *c)
{
	char line[VK_COMPARE_ONELINE];

	vk_ktap_header(k);
	vk_ktap_diag(k, "vdsokit %s compare %s %s", c->version, vk_safe(c->old), vk_safe(c->new));
	vk_ktap_plan(k, c->nrows + c->nfailed);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct vk_compare_row *r = &c->rows[i];
		enum vk_ktap_result res = r->call == VK_CALL_REGRESSION ? VK_KTAP_FAIL :
					  r->call == VK_CALL_NONE ? VK_KTAP_SKIP : VK_KTAP_PASS;
		char note[80];

		vk_ktap_result(k, res, i + 1, r->verdict, "%s %s", vk_safe(r->old->api),
			       vk_safe(r->old->path));
		vk_ktap_diag(k, "new/old %.1f%% (95%% CI %.1f-%.1f), p %.2g: %s%s", r->ratio, r->lo,
			     r->hi, r->p, r->verdict, vk_report_compare_beyond(note, sizeof(note), r));
	}
	for (size_t i = 0; i < c->nfailed; i++) {
		vk_ktap_result(k, VK_KTAP_FAIL, c->nrows + i + 1, NULL, "%s %s",
			       vk_safe(c->failed[i].api), vk_safe(c->failed[i].path));
		vk_ktap_diag(k, "on the %s side, %s: no verdict", c->failed[i].side, c->failed[i].why);
	}
	vk_ktap_diag(k, "%s", vk_report_compare_oneline(line, sizeof(line), c));
	vk_ktap_totals(k, c->passed, c->regressions + c->nfailed, c->no_verdict, 0);
}

static void info(const struct vk_out *k, const struct vk_info *in)
{
	size_t done = 0;

	vk_ktap_header(k);
	vk_ktap_diag(k, "vdsokit %s info", in->version);
	vk_ktap_plan(k, in->napply);
	for (int i = 0; i < VK_NALLFUNCS; i++) {
		const struct vk_info_func *fn = &in->funcs[i];
		char why[160];

		if (!fn->applies)
			continue;
		if (fn->time32_off)
			snprintf(why, sizeof(why), "%s: no %s", fn->absent, fn->f.want);
		else
			snprintf(why, sizeof(why), "the vDSO does not export %s", fn->f.want);
		vk_ktap_result(k, fn->f.found ? VK_KTAP_PASS : VK_KTAP_SKIP, ++done, why, "%s",
			       vk_funcs[i].name);
		if (fn->f.found && fn->runs[0])
			vk_ktap_diag(k, "%s", fn->runs);
	}
}

static void inspect_image(const struct vk_out *o, const struct vk_inspect *in)
{
	static const enum vk_ktap_result as[] = { [VK_INSP_PASS] = VK_KTAP_PASS,
						  [VK_INSP_FAIL] = VK_KTAP_FAIL,
						  [VK_INSP_SKIP] = VK_KTAP_SKIP };

	vk_ktap_header(o);
	vk_ktap_diag(o, "%s: %s, disassembled as %s", vk_safe(in->source), in->arch, in->triple);
	for (size_t i = 0; i < in->nfuncs; i++) {
		const struct vk_insp_func *fn = &in->funcs[i];

		vk_ktap_diag(o, "%s: %" PRIu64 " bytes, %zu insns, frame %" PRIu64
				", %zu indirect, %zu calls, %zu syscalls, %zu probes, %s",
			     vk_safe(fn->name), fn->size, fn->insns, fn->frame,
			     fn->count[VK_INSP_INDIRECT], fn->count[VK_INSP_CALL],
			     fn->count[VK_INSP_SYSCALL], fn->count[VK_INSP_PROBE],
			     fn->fences[0] ? fn->fences : "no barrier or counter read");
	}
	vk_ktap_plan(o, VK_INSP_NCHECKS);
	for (size_t i = 0; i < VK_INSP_NCHECKS; i++) {
		const struct vk_insp_check *c = &in->check[i];

		vk_ktap_result(o, as[c->status], i + 1, vk_safe(c->detail), "%s", c->name);
		if (c->status == VK_INSP_FAIL)
			vk_ktap_diag(o, "%s", vk_safe(c->detail));
	}
	vk_ktap_totals(o, VK_INSP_NCHECKS - in->fails - in->skips, in->fails, in->skips, 0);
}

static void inspect(const struct vk_out *o, const struct vk_inspect_report *r)
{
	if (r->n == 1) {
		inspect_image(o, r->img[0]);
		return;
	}
	vk_ktap_header(o);
	vk_ktap_plan(o, r->n);
	for (size_t i = 0; i < r->n; i++) {
		const struct vk_inspect *in = r->img[i];
		struct vk_out sub = vk_ktap_subtest(o, i ? "B" : "A");

		inspect_image(&sub, in);
		vk_ktap_result(o, in->fails ? VK_KTAP_FAIL : VK_KTAP_PASS, i + 1, NULL, "%s %s",
			       i ? "B" : "A", vk_safe(in->source));
	}
	for (size_t i = 0; i < r->diff->n; i++) {
		const struct vk_insp_diff_row *d = &r->diff->rows[i];

		if (d->changed)
			vk_ktap_diag(o, "B against A: %s differs", vk_safe(d->name));
	}
}

/* A step's document: what its command kept, or step_why nothing ran. */
static void summary_step(const struct vk_out *k, const struct vk_summary *s,
			 const struct vk_summary_step *st)
{
	const struct vk_report rep = { .command = st->name, .version = s->version, .rs = st->rs };
	struct vk_doc d = { .command = st->name, .kind = VK_DOC_SKIPPED,
			    .skipped = st->note ? st->note : "nothing ran" };

	if (st->bench_run) {
		d.kind = VK_DOC_BENCH;
		d.bench = st->bench_run;
	} else if (st->info) {
		d.kind = VK_DOC_INFO;
		d.info = st->info;
	} else if (st->rs) {
		d.kind = VK_DOC_RESULTS;
		d.results = &rep;
	}
	k->nest(k, &d);
}

/* SKIP's reason, or ERROR's where it is vdsokit's own error. */
static const char *step_why(const struct vk_summary_step *st)
{
	if (st->outcome == VK_OUTCOME_ERROR)
		return st->error ? "not tested: vdsokit's own error" : NULL;
	return st->note ? st->note : "nothing could run";
}

/* Each step is a subtest at the next depth, then its result line. */
static void summary(const struct vk_out *k, const struct vk_summary *s)
{
	static const enum vk_ktap_result as[] = {
		[VK_OUTCOME_OK] = VK_KTAP_PASS, [VK_OUTCOME_FAIL] = VK_KTAP_FAIL,
		[VK_OUTCOME_SKIP] = VK_KTAP_SKIP, [VK_OUTCOME_ERROR] = VK_KTAP_ERROR
	};
	vk_ktap_header(k);
	vk_ktap_diag(k, "vdsokit %s all", s->version);
	vk_ktap_plan(k, s->nsteps);
	for (size_t i = 0; i < s->nsteps; i++) {
		const struct vk_summary_step *st = &s->steps[i];
		const struct vk_out sub = vk_ktap_subtest(k, st->name);

		summary_step(&sub, s, st);
		vk_ktap_result(k, as[st->outcome], i + 1, step_why(st), "%s", st->name);
	}
	for (size_t i = 0; i < s->findings->n; i++) {
		char cmd[128];

		vk_finding_reproduce(cmd, sizeof(cmd), &s->findings->f[i]);
		vk_ktap_diag(k, "finding %zu: %s (%zu failed checks; reproduce: %s)", i + 1,
			     s->findings->f[i].what, s->findings->f[i].checks, cmd);
	}
	for (size_t i = 0; i < s->nsteps; i++) {
		if (s->steps[i].unconfirmed)
			vk_ktap_diag(k, "unconfirmed: %s: %zu failed checks failed in this run, but not in a vdsokit exec()ed afresh: no finding, no reproducer",
				     s->steps[i].name, s->steps[i].unconfirmed);
	}
	for (int i = 0; s->warnings && i < s->warnings->n; i++)
		vk_ktap_diag(k, "warning: %s (%s); fix: %s", s->warnings->w[i].what,
			     vk_safe(s->warnings->w[i].detail), s->warnings->w[i].fix);
	vk_ktap_totals(k, s->tally.pass, s->tally.fail, s->tally.skip, s->tally.error);
}

const struct vk_formatter vk_formatter_ktap = {
	.name = "ktap", .skipped = vk_ktap_skip_all, .results = results, .bench = bench,
	.compare = compare, .info = info, .summary = summary, .inspect = inspect,
};
