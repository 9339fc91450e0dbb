// SPDX-License-Identifier: MIT
/*
 * Prints check results (verify, abi, fallback, timens, stress) as text,
 * KTAP and JSON, grouped by API and path.
 */
#include <string.h>

#include "report/doc.h"
#include "report/ktap.h"
#include "report/report.h"
#include "report/safe.h"

static const char *status_name(enum vk_status s)
{
	static const char *const name[] = { [VK_PASS] = "pass", [VK_FAIL] = "fail",
					    [VK_SKIP] = "skip", [VK_ERROR] = "error" };

	return name[s];
}

/* One API on one path, first its first result: its checks and how they went. */
static void text_group(FILE *f, const struct vk_result *first, const struct vk_results_group *g)
{
	fprintf(f, "%-34s %-8s %6zu %12llu  ", first->api, vk_path_name(first->path), g->n,
		g->calls);
	if (g->t.fail)
		fprintf(f, "FAIL (%s%s)\n", g->first_fail, g->t.fail > 1 ? ", ..." : "");
	else if (g->t.error)
		fprintf(f, "ERROR (%s%s)\n", g->first_error, g->t.error > 1 ? ", ..." : "");
	else if (g->t.skip == g->n)
		fprintf(f, "SKIP\n");
	else
		fprintf(f, "ok%s\n", g->t.skip ? " (some skipped)" : "");
}

void vk_report_cases(char *buf, size_t len, const struct vk_result *r)
{
	size_t n = 0;

	buf[0] = '\0';
	if (r->ncases + !!r->more_cases < 2)
		return;
	for (int i = 0; i < r->ncases && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? ", " : "", vk_safe(r->cases[i]));
	if (r->more_cases && n < len)
		snprintf(buf + n, len - n, " and %llu more", r->more_cases);
}

/* " (broken 2 times in 38 calls: flags 0x6, flags 0x7)": how often, and
 * each case where more than one broke. */
static void broken(char *buf, size_t len, const struct vk_result *r)
{
	char cases[VK_RESULT_CASES * 40];

	vk_report_cases(cases, sizeof(cases), r);
	snprintf(buf, len, " (broken %llu times in %llu calls%s%s)", r->fails, r->calls,
		 cases[0] ? ": " : "", cases);
}

#define UNCONFIRMED_TITLE \
	"Unconfirmed (failed in this run, but not in a vdsokit exec()ed afresh: no finding, no reproducer)"

/* Of the results of status want (failures confirmed or not, as
 * unconfirmed says), those with a detail; a passing check's
 * bound only with_bounds, as text_bounds() sums them up otherwise. */
static void details(FILE *f, const struct vk_results *rs, enum vk_status want,
		    const char *title, int with_bounds, int unconfirmed)
{
	int header = 0;

	for (size_t i = 0; i < rs->n; i++) {
		const struct vk_result *r = rs->r[i];
		char how[VK_RESULT_CASES * 40 + 64];

		if (r->status != want || !r->detail[0] ||
		    (r->status == VK_FAIL && (r->confirm == VK_UNCONFIRMED) != unconfirmed))
			continue;
		if (r->status == VK_PASS && r->bound != VK_BOUND_NONE && !with_bounds)
			continue;
		if (!header++)
			fprintf(f, "\n%s:\n", title);
		fprintf(f, "  %s %s %s: %s", r->api, vk_path_name(r->path), r->check,
			vk_safe(r->detail));
		broken(how, sizeof(how), r);
		fprintf(f, "%s\n", r->fails > 1 ? how : "");
	}
}

static void text_details(FILE *f, const struct vk_results *rs, enum vk_status want,
			 const char *title, int with_bounds)
{
	details(f, rs, want, title, with_bounds, 0);
	if (want == VK_FAIL)
		details(f, rs, want, UNCONFIRMED_TITLE, with_bounds, 1);
}

/* "1.2 us", or "0.0-2.6 us": the range of b's bounds. */
static void text_range(FILE *f, const struct vk_bounds *b)
{
	char lo[32], hi[32];

	snprintf(lo, sizeof(lo), "%.1f", b->lo / 1e3);
	snprintf(hi, sizeof(hi), "%.1f", b->hi / 1e3);
	fprintf(f, "%s%s%s us on %zu clock%s", lo, strcmp(lo, hi) ? "-" : "",
		strcmp(lo, hi) ? hi : "", b->apis, b->apis == 1 ? "" : "s");
}

/* The passing checks' bounds in one line: what they tested. */
static void text_bounds(FILE *f, const struct vk_report *r)
{
	if (!r->order.checks && !r->skew.checks)
		return;
	fprintf(f, "Tested: ");
	if (r->order.checks) {
		fprintf(f, "ordering to within ");
		text_range(f, &r->order);
	}
	if (r->skew.checks) {
		fprintf(f, "%scross-CPU skew to within ", r->order.checks ? ", " : "");
		text_range(f, &r->skew);
	}
	fprintf(f, "%s\n", r->verbose ? "" : " (each: --verbose)");
}

/* The stack rule's figures in one line: "Stack: 0-1184 bytes on 6 functions". */
static void text_stack(FILE *f, const struct vk_report *r)
{
	const struct vk_bounds *b = &r->stack;

	if (!b->checks)
		return;
	fprintf(f, "Stack: %lld", b->lo);
	if (b->hi != b->lo)
		fprintf(f, "-%lld", b->hi);
	fprintf(f, " bytes on %zu function%s%s\n", b->apis, b->apis == 1 ? "" : "s",
		r->verbose ? "" : " (each: --verbose)");
}

/* Ends a totals line: ", 3 not tested for vdsokit's own error", where any. */
static void errors(FILE *f, const struct vk_tally *t)
{
	if (t->unconfirmed)
		fprintf(f, ", %zu of the failures unconfirmed", t->unconfirmed);
	if (t->error)
		fprintf(f, ", %zu not tested for vdsokit's own error", t->error);
	fputc('\n', f);
}

void vk_report_text(FILE *f, const struct vk_report *r)
{
	struct vk_tally t = vk_results_tally(r->rs);

	fprintf(f, "%-34s %-8s %6s %12s  %s\n", "API", "path", "checks", "calls", "result");
	for (size_t i = 0; i < r->rs->n;) {
		struct vk_results_group g = vk_results_group(r->rs, i);

		text_group(f, r->rs->r[i], &g);
		i = g.end;
	}
	text_details(f, r->rs, VK_FAIL, "Failures", 1);
	text_details(f, r->rs, VK_SKIP, "Skipped", 1);
	text_details(f, r->rs, VK_ERROR, "Not tested, vdsokit's own error (not the kernel's)", 1);
	/* What passing checks saw; how close they looked, in one line but verbose. */
	text_details(f, r->rs, VK_PASS, "Notes", r->verbose);
	if (r->stopped)
		fprintf(f, "\nChecks whose repeats --max-fails cut short: %zu.\n", vk_results_cut(r->rs));
	fputc('\n', f);
	text_bounds(f, r);
	text_stack(f, r);
	fprintf(f, "%s: %zu checks: %zu passed, %zu failed, %zu skipped", r->command,
		r->rs->n, t.pass, t.fail, t.skip);
	errors(f, &t);
}

void vk_report_results_text(const struct vk_out *o, const struct vk_report *r)
{
	FILE *f = o->f;

	if (r->text)
		r->text(f, r);
	else
		vk_report_text(f, r);
}

void vk_report_ktap(const struct vk_out *k, const struct vk_report *r)
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

		broken(how, sizeof(how), x);
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

static void json_options(struct vk_json *j, const void *ctx)
{
	const struct vk_report *r = ctx;

	vk_json_double(j, "seconds", r->seconds);
	vk_json_array(j, "paths");
	for (int p = 0; p < VK_NPATHS; p++) {
		if (r->paths & VK_PATH_BIT(p))
			vk_json_str(j, NULL, vk_path_name(p));
	}
	vk_json_end(j);
}

/* "cases": each that broke, named, where the rule names them; how many
 * more past the room it had, in "more_cases". */
static void json_cases(struct vk_json *j, const struct vk_result *x)
{
	if (!x->ncases)
		return;
	vk_json_array(j, "cases");
	for (int i = 0; i < x->ncases; i++)
		vk_json_str(j, NULL, x->cases[i]);
	vk_json_end(j);
	vk_json_uint(j, "more_cases", x->more_cases);
}

void vk_report_json(const struct vk_out *o, const struct vk_report *r)
{
	FILE *f = o->f;
	const struct vk_envelope d = { .command = r->command, .version = 1, .tool_version = r->version,
				  .sys = r->sys, .options = json_options, .ctx = r };
	struct vk_tally t = vk_results_tally(r->rs);
	struct vk_json j;

	vk_json_init(&j, f);
	vk_doc_begin(&j, NULL, &d);
	vk_json_bool(&j, "stopped", r->stopped);
	if (r->json_more)
		r->json_more(&j, r->ctx);
	vk_json_array(&j, "results");
	for (size_t i = 0; i < r->rs->n; i++) {
		const struct vk_result *x = r->rs->r[i];

		vk_json_object(&j, NULL);
		vk_json_str(&j, "api", x->api);
		vk_json_str(&j, "path", vk_path_name(x->path));
		vk_json_str(&j, "check", x->check);
		vk_json_str(&j, "status", status_name(x->status));
		vk_json_uint(&j, "calls", x->calls);
		vk_json_uint(&j, "fails", x->fails);
		vk_json_str(&j, "detail", x->detail[0] ? x->detail : NULL);
		json_cases(&j, x);
		if (x->confirm != VK_CONFIRM_NONE)
			vk_json_bool(&j, "confirmed", x->confirm == VK_CONFIRMED);
		vk_json_end(&j);
	}
	vk_json_end(&j);
	vk_json_object(&j, "totals");
	vk_json_uint(&j, "pass", t.pass);
	vk_json_uint(&j, "fail", t.fail);
	vk_json_uint(&j, "skip", t.skip);
	vk_json_uint(&j, "error", t.error);
	vk_json_end(&j);
	vk_json_end(&j);
}

void vk_report_fallback_text(FILE *f, const struct vk_report *r)
{
	struct vk_tally t = vk_results_tally(r->rs);

	fprintf(f, "%-34s %-8s %s\n", "API", "path", "where it runs");
	for (size_t i = 0; i < r->rs->n; i++) {
		const struct vk_result *x = r->rs->r[i];

		fprintf(f, "%-34s %-8s %s%s\n", x->api, vk_path_name(x->path),
			x->status == VK_FAIL ? "FAIL: " : x->status == VK_SKIP ? "not probed: " :
			x->status == VK_ERROR ? "ERROR, vdsokit's own: " : "", vk_safe(x->detail));
	}
	fprintf(f, "\n%s: %zu probes: %zu answered, %zu failed, %zu skipped", r->command,
		r->rs->n, t.pass, t.fail, t.skip);
	errors(f, &t);
}

void vk_report_abi_text(FILE *f, const struct vk_report *r)
{
	const struct vk_abi_counts *counts = r->ctx;
	const struct vk_abi_count *c = counts->c;
	size_t n = counts->n;
	struct vk_tally t = vk_results_tally(r->rs);

	fprintf(f, "%-30s %-8s %6s %10s %8s %11s %8s\n", "function", "path", "cases",
		"identical", "allowed", "unexpected", "skipped");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%-30s %-8s %6zu %10zu %8zu %11zu %8zu\n", c[i].func,
			vk_path_name(c[i].path), c[i].cases, c[i].identical, c[i].allowed, c[i].unexpected, c[i].skipped);
	text_details(f, r->rs, VK_FAIL, "Unexpected", 1);
	text_details(f, r->rs, VK_ERROR, "Not tested, vdsokit's own error (not the kernel's)", 1);
	fprintf(f, "\n%s: %zu cases: %zu as the syscall or as the ABI allows, %zu unexpected, %zu skipped",
		r->command, r->rs->n, t.pass, t.fail, t.skip);
	errors(f, &t);
}
