// SPDX-License-Identifier: MIT
/*
 * Text: every kind of document as a person reads it at a terminal, and
 * the format's row. A command of checks may give its own layout
 * (struct vk_report's text: abi's counts, fallback's answers).
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/result/findings.h"
#include "report/apis.h"
#include "report/bench.h"
#include "report/compare.h"
#include "report/format.h"
#include "report/info.h"
#include "report/inspect.h"
#include "report/out.h"
#include "report/report.h"
#include "report/safe.h"
#include "report/summary.h"

#define UNCONFIRMED_TITLE \
	"Unconfirmed (failed in this run, but not in a vdsokit exec()ed afresh: no finding, no reproducer)"
/* Of vdsokit's own errors, how many the text names one by one. */
#define VK_SHOWN_ERRORS 8

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

/* Of the results of status want (failures confirmed or not, as
 * unconfirmed says), those with a detail; a passing check's
 * bound only with_bounds, as text_bounds() sums them up otherwise. */
static void results_details(FILE *f, const struct vk_results *rs, enum vk_status want,
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
		vk_report_broken(how, sizeof(how), r);
		fprintf(f, "%s\n", r->fails > 1 ? how : "");
	}
}

static void text_details(FILE *f, const struct vk_results *rs, enum vk_status want,
			 const char *title, int with_bounds)
{
	results_details(f, rs, want, title, with_bounds, 0);
	if (want == VK_FAIL)
		results_details(f, rs, want, UNCONFIRMED_TITLE, with_bounds, 1);
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
static void results_errors(FILE *f, const struct vk_tally *t)
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
	results_errors(f, &t);
}

static void results(const struct vk_out *o, const struct vk_report *r)
{
	FILE *f = o->f;

	if (r->text)
		r->text(f, r);
	else
		vk_report_text(f, r);
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
	results_errors(f, &t);
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
	results_errors(f, &t);
}

/* "-" where one process left no spread to measure. */
static const char *bench_num(char *buf, size_t len, double x)
{
	snprintf(buf, len, isfinite(x) ? "%.1f" : "-", x);
	return buf;
}

static const char *bench_ci(char *buf, size_t len, const struct vk_bench_result *r)
{
	char lo[24], hi[24];

	snprintf(buf, len, "%9s - %9s", bench_num(lo, sizeof(lo), r->ci_lo), bench_num(hi, sizeof(hi), r->ci_hi));
	return buf;
}

static void threads_line(FILE *f, const struct vk_bench_report *rep)
{
	fprintf(f, "threads: %d at once, each pinned, to CPU", rep->threads);
	for (int i = 0; i < rep->threads && rep->thread_cpu; i++)
		fprintf(f, "%s%d", i ? "," : rep->threads > 1 ? "s " : " ", rep->thread_cpu[i]);
	fprintf(f, "; scaling: their calls/s over one thread's, in the same processes\n");
}

static int has_getrandom(const struct vk_bench_report *rep)
{
	for (size_t i = 0; i < rep->n; i++) {
		if (!strcmp(rep->r[i].api, "getrandom"))
			return 1;
	}
	return 0;
}

static void bench(const struct vk_out *o, const struct vk_bench_report *rep)
{
	FILE *f = o->f;
	const char *stat = rep->cold ? "p90" : "CV%";
	char buf[64], stat_buf[24];

	fprintf(f, "%-34s %-8s %9s %9s %21s %6s %4s\n", "API", "path", "median", "min",
		"95% CI", stat, "n");
	for (size_t i = 0; i < rep->n; i++) {
		const struct vk_bench_result *r = &rep->r[i];

		if (r->skipped) {
			fprintf(f, "%-34s %-8s %9s   (%s)\n", r->api, vk_path_name(r->path), "-",
				r->skipped);
			continue;
		}
		fprintf(f, "%-34s %-8s %9.1f %9.1f %21s %6s %4d%s\n", r->api,
			vk_path_name(r->path), r->median, r->min, bench_ci(buf, sizeof(buf), r),
			bench_num(stat_buf, sizeof(stat_buf), rep->cold ? r->p90 : r->cv), r->n,
			r->multimodal ? "  multimodal" : "");
		if (r->threads && isnan(r->scaling))
			fprintf(f, "  %d threads: %.4g calls/s in all, %.1f ns per call per thread, scaling not judged: they held their CPUs %.0f%% of the time\n",
				r->threads, r->all_per_s, r->thread_ns, r->at_once * 100);
		else if (r->threads)
			fprintf(f, "  %d threads: %.4g calls/s in all, %.1f ns per call per thread, scaling %.2f\n",
				r->threads, r->all_per_s, r->thread_ns, r->scaling);
	}
	if (rep->cold)
		fprintf(f, "\nns per call, one cold call at a time: the median of %d processes' medians, their 95%% CI and CV\n",
			rep->processes);
	else
		fprintf(f, "\nns per call, unpreempted (each sample the fastest batch of calls of %.0f us or more,\n"
			"leaving out time spent waiting for a CPU; a wall-clock loop reads more under load):\n"
			"the median of %d processes' medians, their 95%% CI and CV\n",
			VK_BENCH_BATCH_NS / 1000, rep->processes);
	if (rep->threads)
		threads_line(f, rep);
	fprintf(f, "timer %s at %.4f GHz, its cost (%.1f ns) subtracted; CPU %d\n",
		rep->timer->name, 1 / rep->timer->ns_per_tick,
		rep->timer->overhead * rep->timer->ns_per_tick, rep->cpu);
	if (has_getrandom(rep))
		fprintf(f, "getrandom: %zu bytes a call (--length)\n", rep->random_len);
	fprintf(f, "the machine's own speed, for compare: reference loop %.3f ns per step, %.3f ns per load, getppid %.1f ns\n",
		rep->reference.ns[VK_REF_CPU], rep->reference.ns[VK_REF_LOADS],
		rep->reference.ns[VK_REF_SYS]);
	if (rep->disturbed)
		fprintf(f, "warning: the run was disturbed (load %.2f, %ld involuntary context switches): repeat it on a quieter machine\n",
			rep->loadavg, rep->involuntary);
	for (int i = 0; i < rep->warnings.n; i++)
		fprintf(f, "warning: %s (%s); fix: %s\n", rep->warnings.w[i].what,
			rep->warnings.w[i].detail, rep->warnings.w[i].fix);
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

/* A side's --threads compare_scaling, or why none: its threads did not run at once. */
static const char *compare_scaling(char *buf, size_t size, double x)
{
	if (isnan(x))
		return "not judged";
	snprintf(buf, size, "%.2f", x);
	return buf;
}

static void compare_row(FILE *f, const struct vk_compare_row *r, int wapi, int wpath)
{
	char ratio[24], lo[24], hi[24], ci[56], note[80], so[24], sn[24];

	snprintf(ci, sizeof(ci), "%s..%s", pct(lo, sizeof(lo), r->lo), pct(hi, sizeof(hi), r->hi));
	fprintf(f, "%-*s  %-*s  %8.2f ns  %8.2f ns  %7s  %-15s  %-7.2g  %s%s%s\n", wapi,
		vk_safe(r->old->api), wpath, vk_safe(r->old->path), r->old_med, r->new_med,
		pct(ratio, sizeof(ratio), r->ratio), ci, r->p, r->verdict,
		r->significant && r->call == VK_CALL_UNCHANGED ? " (significant)" : "",
		vk_report_compare_beyond(note, sizeof(note), r));
	/* bench --threads on both sides: the compare_scaling too, not judged. */
	if (r->old->threads && r->new->threads)
		fprintf(f, "  %-*s  scaling %s at %d threads -> %s at %d\n", wapi, "",
			compare_scaling(so, sizeof(so), r->old->scaling), r->old->threads,
			compare_scaling(sn, sizeof(sn), r->new->scaling), r->new->threads);
}

/* The compare_reference loops in each file: how far the machine's own speed moved. */
static void compare_reference(FILE *f, const struct vk_compare_report *c)
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
static void compare_env_diff(FILE *f, const struct vk_compare_report *c)
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

static void compare(const struct vk_out *o, const struct vk_compare_report *c)
{
	FILE *f = o->f;
	char line[VK_COMPARE_ONELINE];
	int wapi = 3, wpath = 4;

	if (c->interleaved)
		fprintf(f, "old: %s\nnew: %s\n(measured in turn in one process, each library loaded %d time%s)\n\n",
			vk_safe(c->old), vk_safe(c->new), c->copies, plural(c->copies));
	compare_env_diff(f, c);
	compare_reference(f, c);
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
		compare_row(f, &c->rows[i], wapi, wpath);
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

static void info_system(FILE *f, const struct vk_info *in)
{
	const struct vk_sysinfo *s = &in->sys;

	fprintf(f, "vdsokit %s\n", in->version);
	fprintf(f, "kernel:        %s %s %s\n", vk_safe(s->uts.sysname),
		vk_safe(s->uts.release), vk_safe(s->uts.machine));
	fprintf(f, "build:         %s\n", in->build_abi);
	fprintf(f, "clocksource:   %s (available: %s)\n",
		s->clocksource[0] ? vk_safe(s->clocksource) : "unknown",
		s->clocksources[0] ? vk_safe(s->clocksources) : "unknown");
	fprintf(f, "  vDSO-capable: %s: %s\n", vk_report_tristate(s->cs_vdso), vk_safe(s->cs_note));
	fprintf(f, "time namespace: %s", s->timens == VK_YES ? "non-initial" :
					 s->timens_kernel == VK_NO ? "none" :
					 s->timens == VK_NO ? "initial" : "unknown");
	if (s->have_offsets)
		fprintf(f, " (offsets: monotonic %lld.%09lld s, boottime %lld.%09lld s)",
			s->mono_offset[0], s->mono_offset[1], s->boot_offset[0],
			s->boot_offset[1]);
	fprintf(f, ": %s\n", vk_safe(s->timens_note));
	fprintf(f, "vsyscall:      %s: %s\n", vk_vsyscall_mode_name(in->vsyscall.mode),
		in->vsyscall.note);
}

static void info_image(FILE *f, const struct vk_info *in)
{
	const struct vk_image *im = in->im;
	const struct vk_elf *e = &im->elf;
	struct vk_elf_verdef v;

	if (im->live)
		fprintf(f, "vDSO:          at %p (AT_SYSINFO_EHDR), %zu bytes\n",
			(const void *)e->base, in->size);
	else
		fprintf(f, "vDSO:          %s, %zu bytes\n", vk_safe(im->source), in->size);
	fprintf(f, "  ELF:         ELF%d %s-endian %s (machine %u)\n", e->is64 ? 64 : 32,
		e->big_endian ? "big" : "little",
		vk_elf_machine_name(e->machine), e->machine);
	if (im->arch)
		fprintf(f, "  ABI:         %s: %s* symbols at version %s\n", im->arch->name,
			im->arch->prefix, im->arch->version);
	else
		fprintf(f, "  ABI:         not in vdsokit's table: functions are not looked up\n");
	fprintf(f, "  soname:      %s\n", e->soname ? vk_safe(e->soname) : "(none)");
	fprintf(f, "  Linux note:  %s\n", in->linux_note[0] ? vk_safe(in->linux_note) : "(none)");
	fprintf(f, "  build-id:    %s\n", in->build_id[0] ? vk_safe(in->build_id) : "(none)");
	fprintf(f, "  hash tables:%s%s%s; symbols found through %s\n",
		e->gnu_hash.size ? " DT_GNU_HASH" : "", e->hash.size ? " DT_HASH" : "",
		e->gnu_hash.size || e->hash.size ? "" : " none",
		vk_elf_symsrc_name(e->symsrc));
	if (in->hash_problem[0])
		fprintf(f, "  hash problem: %s\n", vk_safe(in->hash_problem));
	if (e->warn[0])
		fprintf(f, "  warning:     %s\n", vk_safe(e->warn));
	fprintf(f, "  versions:   ");
	for (size_t i = 0; vk_elf_verdef(e, i, &v) == 0; i++)
		fprintf(f, " %s%s", vk_safe(v.name), v.flags & 1 ? " (base)" : "");
	fprintf(f, "%s\n", e->verdefnum ? "" : " (unversioned)");
}

static void info_funcs(FILE *f, const struct vk_info *in)
{
	char buf[128];

	fprintf(f, "\nfunctions:\n");
	for (int i = 0; i < VK_NALLFUNCS; i++) {
		const struct vk_info_func *fn = &in->funcs[i];
		const char *name = vk_funcs[fn->id].name;

		if (!fn->applies)
			continue;
		if (fn->f.found)
			fprintf(f, "  %-20s %-34s %s\n", name,
				vk_safe(vk_report_symver(buf, sizeof(buf), &fn->f.sym)), fn->runs);
		else if (fn->f.wrong_version)
			fprintf(f, "  %-20s absent at %s: only %s\n", name, fn->f.want_version,
				vk_safe(vk_report_symver(buf, sizeof(buf), &fn->f.sym)));
		else
			fprintf(f, "  %-20s absent: %s (%s@%s)\n", name, fn->absent, fn->f.want,
				fn->f.want_version);
	}
	if (in->nulled)
		fprintf(f, "  (%d nameless function symbols: entries nulled out in place, as arm's kernel does without an architected timer)\n",
			in->nulled);
	for (int i = 0; i < VK_NALLFUNCS; i++) {
		if (in->funcs[i].follows)
			fprintf(f, "  so: %s\n", vk_safe(in->funcs[i].follows));
	}
}

/* Only a 32-bit image has entries that are not y2038-safe. */
static void info_y2038(FILE *f, const struct vk_info *in)
{
	if (in->im->elf.is64)
		return;
	fprintf(f, "\ny2038:\n");
	for (int i = 0; i < VK_NFUNCS; i++) {
		const struct vk_info_func *fn = &in->funcs[i];

		if (fn->applies && fn->y2038)
			fprintf(f, "  %-20s %s%s\n", vk_funcs[fn->id].name, fn->y2038,
				fn->f.found ? "" : " (not exported)");
	}
}

static void info_symbols(FILE *f, const struct vk_elf *e)
{
	struct vk_elf_sym s;
	char buf[128];

	fprintf(f, "\nsymbols (%zu):\n  %5s  %-18s %6s %-7s %-7s %s\n", e->nsyms ? e->nsyms - 1 : 0,
		"index", "value", "size", "type", "bind", "name");
	for (size_t i = 1; i < e->nsyms; i++) {
		if (vk_elf_sym(e, i, &s)) {
			fprintf(f, "  %5zu  (malformed symbol)\n", i);
			continue;
		}
		fprintf(f, "  %5zu  %#-18" PRIx64 " %6" PRIu64 " %-7s %-7s %s\n", i, s.value, s.size,
			vk_elf_sym_type_name(s.type), vk_elf_sym_bind_name(s.bind),
			vk_safe(vk_report_symver(buf, sizeof(buf), &s)));
	}
}

static void info(const struct vk_out *o, const struct vk_info *in)
{
	FILE *f = o->f;

	info_system(f, in);
	if (!in->im) {
		fprintf(f, "vDSO:          none: %s\n", in->no_image);
		return;
	}
	info_image(f, in);
	info_funcs(f, in);
	info_y2038(f, in);
	info_symbols(f, &in->im->elf);
}

/* The ABI's number, never this build's for another ABI's image. */
static void apis_syscall(char *buf, size_t len, const struct vk_api_list *l,
			 const struct vk_api_row *r)
{
	const struct vk_func_info *fn = &vk_funcs[r->api->func];

	if (!fn->syscall)
		snprintf(buf, len, "-");
	else if (!l->sysno)
		snprintf(buf, len, "%s(?)", fn->syscall);
	else if (l->sysno[r->api->func] < 0)
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "%s(%ld)", fn->syscall, l->sysno[r->api->func]);
}

static void apis(const struct vk_out *o, const struct vk_api_list *l)
{
	FILE *f = o->f;
	char sys[48];

	fprintf(f, "%-34s %-30s %5s %-38s %-14s %-24s %s\n", "API", "function", "clock",
		"symbol", "libc", "syscall", "vDSO");
	for (size_t i = 0; i < l->n; i++) {
		const struct vk_api_row *r = &l->rows[i];
		const struct vk_func_info *fn = &vk_funcs[r->api->func];

		apis_syscall(sys, sizeof(sys), l, r);
		fprintf(f, "%-34s %-30s ", r->api->name, fn->name);
		if (r->api->clock >= 0)
			fprintf(f, "%5d ", r->api->clock);
		else
			fprintf(f, "%5s ", "-");
		fprintf(f, "%-38s %-14s %-24s %s\n", r->f.want[0] ? r->f.want : "?",
			fn->libc ? fn->libc : "-", sys, vk_report_api_status(l, r));
	}
	fprintf(f, "\n%zu APIs for the %s ABI%s%s\n", l->n, l->abi ? l->abi : "unknown",
		l->image ? "; vDSO: " : "", l->image ? vk_safe(l->image) : "");
	if (!l->sysno)
		fprintf(f, "syscall numbers (?): not known for the %s ABI\n",
			l->abi ? l->abi : "unknown");
}

/* The kinds whose every site text prints; barriers and counter reads
 * print as the function's tally. */
static const enum vk_insp_kind listed[] = { VK_INSP_INDIRECT, VK_INSP_PROBE, VK_INSP_SYSCALL,
					    VK_INSP_CALL };

static const char *inspect_status(enum vk_insp_status s)
{
	return s == VK_INSP_PASS ? "PASS" : s == VK_INSP_FAIL ? "FAIL" : "SKIP";
}

static void inspect_sites(FILE *f, const struct vk_insp_func *fn)
{
	for (size_t k = 0; k < sizeof(listed) / sizeof(listed[0]); k++) {
		enum vk_insp_kind kind = listed[k];
		size_t n = fn->count[kind] < VK_INSP_SITES ? fn->count[kind] : VK_INSP_SITES;

		for (size_t i = 0; i < n; i++) {
			const struct vk_insp_site *s = &fn->site[kind][i];

			fprintf(f, "    %-8s %#" PRIx64 "  %s%s%s%s\n", vk_report_insp_kinds[kind], s->addr,
				vk_safe(s->text), s->what[0] ? " (" : "", vk_safe(s->what),
				s->what[0] ? ")" : "");
		}
		if (fn->count[kind] > n)
			fprintf(f, "    %-8s ... %zu more\n", vk_report_insp_kinds[kind], fn->count[kind] - n);
	}
}

static void inspect_image(FILE *f, const struct vk_inspect *in)
{
	fprintf(f, "%s: %s, disassembled as %s\n\n", vk_safe(in->source), in->arch, in->triple);
	fprintf(f, "%-28s %6s %6s %6s %4s %4s %4s  %s\n", "function", "bytes", "insns", "frame",
		"ind", "call", "sys", "barriers and counter reads");
	for (size_t i = 0; i < in->nfuncs; i++) {
		const struct vk_insp_func *fn = &in->funcs[i];

		fprintf(f, "%-28s %5" PRIu64 "%s %6zu %6" PRIu64 " %4zu %4zu %4zu  %s\n",
			vk_safe(fn->name), fn->size, fn->size_guessed ? "?" : " ", fn->insns,
			fn->frame, fn->count[VK_INSP_INDIRECT], fn->count[VK_INSP_CALL],
			fn->count[VK_INSP_SYSCALL], fn->fences[0] ? fn->fences : "-");
		if (fn->undecoded)
			fprintf(f, "    %zu places LLVM could not decode (data, padding)\n",
				fn->undecoded);
		inspect_sites(f, fn);
	}
	if (in->more_funcs)
		fprintf(f, "(%zu more functions not read)\n", in->more_funcs);
	fprintf(f, "\nChecks:\n");
	for (size_t i = 0; i < VK_INSP_NCHECKS; i++)
		fprintf(f, "  %s  %s: %s\n", inspect_status(in->check[i].status), in->check[i].name,
			vk_safe(in->check[i].detail));
	fprintf(f, "%zu passed, %zu failed, %zu skipped\n",
		(size_t)VK_INSP_NCHECKS - in->fails - in->skips, in->fails, in->skips);
}

static void inspect_diff(FILE *f, const struct vk_inspect_report *r)
{
	const struct vk_inspect *a = r->img[0], *b = r->img[1];

	fprintf(f, "\nB against A: %s against %s (%zu of %zu functions differ)\n",
		vk_safe(b->source), vk_safe(a->source), r->diff->changed, r->diff->n);
	fprintf(f, "  %-26s %13s %11s %7s %7s  %s\n", "function", "bytes A>B", "frame A>B",
		"ind A>B", "sys A>B", "barriers and counter reads");
	for (size_t i = 0; i < r->diff->n; i++) {
		const struct vk_insp_diff_row *d = &r->diff->rows[i];
		const struct vk_insp_func *fa = d->a >= 0 ? &a->funcs[d->a] : NULL;
		const struct vk_insp_func *fb = d->b >= 0 ? &b->funcs[d->b] : NULL;

		if (!fa || !fb) {
			fprintf(f, "%c %-26s only in %s\n", '*', vk_safe(d->name), fa ? "A" : "B");
			continue;
		}
		fprintf(f, "%c %-26s %6" PRIu64 ">%-6" PRIu64 " %5" PRIu64 ">%-5" PRIu64
			   " %3zu>%-3zu %3zu>%-3zu  %s\n",
			d->changed ? '*' : ' ', vk_safe(d->name), fa->size, fb->size, fa->frame,
			fb->frame, fa->count[VK_INSP_INDIRECT], fb->count[VK_INSP_INDIRECT],
			fa->count[VK_INSP_SYSCALL], fb->count[VK_INSP_SYSCALL],
			fa->fences[0] ? fa->fences : "-");
		if (strcmp(fa->fences, fb->fences))
			fprintf(f, "  %-26s %*s> %s\n", "", 45, "", fb->fences[0] ? fb->fences : "-");
	}
}

static void inspect(const struct vk_out *o, const struct vk_inspect_report *r)
{
	for (size_t i = 0; i < r->n; i++) {
		if (i)
			fprintf(o->f, "\n");
		if (r->n > 1)
			fprintf(o->f, "%s: ", i ? "B" : "A");
		inspect_image(o->f, r->img[i]);
	}
	if (r->diff)
		inspect_diff(o->f, r);
}

static void summary_header(FILE *f, const struct vk_summary *s)
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
	for (int i = 0, n = 0; i < VK_NALLFUNCS; i++) {
		if (in->funcs[i].applies && in->funcs[i].f.found)
			fprintf(f, "%s%s", n++ ? " " : "", vk_funcs[i].name);
	}
	fputc('\n', f);
}

static void summary_steps(FILE *f, const struct vk_summary *s)
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

static void summary_finding(FILE *f, size_t i, const struct vk_finding *x)
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

static void summary_findings(FILE *f, const struct vk_summary *s)
{
	const struct vk_findings *fs = s->findings;

	if (!fs->n)
		return;
	fprintf(f, "\nFindings (%zu):\n", fs->n);
	for (size_t i = 0; i < fs->n; i++)
		summary_finding(f, i, &fs->f[i]);
	if (fs->unsorted)
		fprintf(f, "and %zu more failed checks: see --verbose\n", fs->unsorted);
}

/* vdsokit's own errors, each step's, named: they are not the kernel's. */
static void summary_own_errors(FILE *f, const struct vk_summary *s)
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

/* Failures not made again afresh, each step's, named: no summary_finding. */
static void summary_unconfirmed(FILE *f, const struct vk_summary *s)
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

static void summary_ns(FILE *f, double v)
{
	if (isnan(v))
		fprintf(f, " %8s", "-");
	else
		fprintf(f, " %8.1f", v);
}

static void summary_bench(FILE *f, const struct vk_summary *s)
{
	if (!s->nhead)
		return;
	fprintf(f, "\n%-31s %8s %8s %8s  %s\n", "bench: ns per call, unpreempted", "vdso", "libc",
		"syscall", "vdso vs syscall");
	for (size_t i = 0; i < s->nhead; i++) {
		const struct vk_headline *h = &s->head[i];

		fprintf(f, "%-31s", h->api);
		summary_ns(f, h->ns[VK_PATH_VDSO]);
		summary_ns(f, h->ns[VK_PATH_LIBC]);
		summary_ns(f, h->ns[VK_PATH_SYSCALL]);
		if (!isnan(h->faster))
			fprintf(f, "  %.1fx faster", h->faster);
		fputc('\n', f);
	}
}

static void summary_warnings(FILE *f, const struct vk_summary *s)
{
	if (!s->warnings || !s->warnings->n)
		return;
	fprintf(f, "\nWarnings (the figures may not hold elsewhere):\n");
	for (int i = 0; i < s->warnings->n; i++) {
		const struct vk_warning *w = &s->warnings->w[i];

		fprintf(f, "- %s (%s); fix: %s\n", w->what, vk_safe(w->detail), w->fix);
	}
}

static void summary_verdict(FILE *f, const struct vk_summary *s)
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

static void summary(const struct vk_out *o, const struct vk_summary *s)
{
	FILE *f = o->f;

	summary_header(f, s);
	summary_steps(f, s);
	summary_findings(f, s);
	summary_unconfirmed(f, s);
	summary_own_errors(f, s);
	summary_bench(f, s);
	summary_warnings(f, s);
	summary_verdict(f, s);
}

const struct vk_formatter vk_formatter_text = {
	.name = "text", .results = results, .bench = bench, .compare = compare, .info = info,
	.apis = apis, .summary = summary, .inspect = inspect,
};
