// SPDX-License-Identifier: MIT
/*
 * JSON: every kind of document, each in the common envelope
 * (report/doc.h) and written through report/json_writer.h, and the
 * format's row (doc/json-schema/ has each kind's schema).
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/base/array.h"
#include "core/benchfile/keys.h"
#include "report/apis.h"
#include "report/bench.h"
#include "report/compare.h"
#include "report/doc.h"
#include "report/format.h"
#include "report/info.h"
#include "report/inspect.h"
#include "report/json_writer.h"
#include "report/out.h"
#include "report/report.h"
#include "report/safe.h"

static const char *status_name(enum vk_status s)
{
	static const char *const name[] = { [VK_PASS] = "pass", [VK_FAIL] = "fail",
					    [VK_SKIP] = "skip", [VK_ERROR] = "error" };

	return name[s];
}

static void results_options(struct vk_json *j, const void *ctx)
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
static void results_cases(struct vk_json *j, const struct vk_result *x)
{
	if (!x->ncases)
		return;
	vk_json_array(j, "cases");
	for (int i = 0; i < x->ncases; i++)
		vk_json_str(j, NULL, x->cases[i]);
	vk_json_end(j);
	vk_json_uint(j, "more_cases", x->more_cases);
}

static void results(const struct vk_out *o, const struct vk_report *r)
{
	FILE *f = o->f;
	const struct vk_envelope d = { .command = r->command, .version = 1, .tool_version = r->version,
				  .sys = r->sys, .options = results_options, .ctx = r };
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
		results_cases(&j, x);
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

/* The same samples, an array per process: compare's verdict needs them. */
static void process_samples(struct vk_json *j, const struct vk_bench_row *row)
{
	int at = 0;

	vk_json_array(j, VK_BF_PROCESS_SAMPLES_NS);
	for (int g = 0; g < row->ngroups; g++) {
		vk_json_array(j, NULL);
		for (int i = 0; i < row->group_n[g]; i++)
			vk_json_double(j, NULL, row->samples[at + i]);
		at += row->group_n[g];
		vk_json_end(j);
	}
	vk_json_end(j);
}

static void bench_figures(struct vk_json *j, const struct vk_bench_result *r, int cold)
{
	vk_json_double(j, VK_BF_MEDIAN, r->median);
	vk_json_double(j, VK_BF_MIN, r->min);
	vk_json_double(j, VK_BF_CI_LOW, r->ci_lo);
	vk_json_double(j, VK_BF_CI_HIGH, r->ci_hi);
	vk_json_double(j, VK_BF_CV, r->cv);
	if (cold) {
		vk_json_double(j, VK_BF_P90, r->p90);
		vk_json_double(j, VK_BF_P99, r->p99);
	}
	vk_json_int(j, VK_BF_SAMPLES, r->n);
	vk_json_uint(j, VK_BF_BATCH, r->batch);
	vk_json_bool(j, VK_BF_MULTIMODAL, r->multimodal);
	vk_json_uint(j, VK_BF_CALLS, r->calls);
	vk_json_int(j, VK_BF_INVOLUNTARY, r->involuntary_switches);
	vk_json_int(j, VK_BF_PROCESSES, r->ngroups);
	if (r->threads) {
		vk_json_int(j, VK_BF_THREADS, r->threads);
		vk_json_double(j, VK_BF_CALLS_PER_S, r->all_per_s);
		vk_json_double(j, VK_BF_THREAD_NS, r->thread_ns);
		vk_json_double(j, VK_BF_ONE_PER_S, r->one_per_s);
		vk_json_double(j, VK_BF_SCALING, r->scaling);
		vk_json_double(j, VK_BF_AT_ONCE, r->at_once);
	}
}

/* A row whose calls failed: how often, and how where this run measured it. */
static void bench_failed(struct vk_json *j, const struct vk_bench_row *row)
{
	vk_json_uint(j, VK_BF_FAILED, row->failed);
	if (!row->r)
		return;
	vk_json_uint(j, VK_BF_CALLS, row->r->failed_of);
	vk_json_str(j, VK_BF_CALL, row->r->call);
	vk_json_int(j, VK_BF_ERRNO, row->r->err);
}

static void bench_row(struct vk_json *j, const struct vk_bench_row *row, int cold)
{
	vk_json_object(j, NULL);
	vk_json_str(j, VK_BF_API, row->api);
	vk_json_str(j, VK_BF_PATH, row->path);
	if (row->skipped) {
		vk_json_str(j, VK_BF_SKIPPED, row->skipped);
		if (row->failed)
			bench_failed(j, row);
		if (row->r && row->r->crashed)
			vk_json_bool(j, VK_BF_CRASHED, 1);
		vk_json_end(j);
		return;
	}
	if (row->r)
		bench_figures(j, row->r, cold);
	vk_json_array(j, VK_BF_SAMPLES_NS);
	for (int i = 0; i < row->n; i++)
		vk_json_double(j, NULL, row->samples[i]);
	vk_json_end(j);
	process_samples(j, row);
	vk_json_end(j);
}

/* A measured result as a row: its figures and its samples. */
static struct vk_bench_row bench_result_row(const struct vk_bench_result *r)
{
	return (struct vk_bench_row){
		.api = r->api, .path = vk_path_name(r->path), .skipped = r->skipped,
		.failed = r->failed, .r = r,
		.samples = r->samples, .n = r->n, .group_n = r->group_n, .ngroups = r->ngroups,
	};
}

static void bench_options(struct vk_json *j, const void *ctx)
{
	const struct vk_bench_report *rep = ctx;

	vk_json_double(j, VK_BF_SECONDS, rep->seconds);
	vk_json_int(j, VK_BF_SAMPLES, rep->samples);
	vk_json_int(j, VK_BF_PROCESSES, rep->processes);
	vk_json_int(j, VK_BF_CPU, rep->cpu);
	vk_json_bool(j, VK_BF_COLD, rep->cold);
	vk_json_int(j, VK_BF_RANDOM_LEN, rep->random_len);
	if (rep->threads && rep->thread_cpu) {
		vk_json_int(j, VK_BF_THREADS, rep->threads);
		vk_json_array(j, VK_BF_THREAD_CPUS);
		for (int i = 0; i < rep->threads; i++)
			vk_json_int(j, NULL, rep->thread_cpu[i]);
		vk_json_end(j);
	}
}

/* The machine as the run found it, and the warnings about it. */
static void bench_environment(struct vk_json *j, const void *ctx)
{
	const struct vk_bench_report *rep = ctx;

	vk_json_str(j, VK_BF_CPU_MODEL, rep->cpu_model);
	vk_json_str(j, VK_BF_GOVERNOR, rep->governor[0] ? rep->governor : NULL);
	vk_json_double(j, VK_BF_LOADAVG, rep->loadavg);
	vk_json_int(j, VK_BF_VOLUNTARY, rep->voluntary);
	vk_json_int(j, VK_BF_INVOLUNTARY, rep->involuntary);
	vk_json_bool(j, VK_BF_DISTURBED, rep->disturbed);
	vk_json_array(j, VK_BF_WARNINGS);
	for (int i = 0; i < rep->warnings.n; i++) {
		vk_json_object(j, NULL);
		vk_json_str(j, VK_BF_WARNING, rep->warnings.w[i].what);
		vk_json_str(j, VK_BF_DETAIL, rep->warnings.w[i].detail);
		vk_json_str(j, VK_BF_FIX, rep->warnings.w[i].fix);
		vk_json_end(j);
	}
	vk_json_end(j);
}

static void bench_reference(struct vk_json *j, const struct vk_bench_report *rep)
{
	vk_json_object(j, VK_BF_REFERENCE);
	vk_json_str(j, VK_BF_REF_LOOP, "four chains of dependent multiply-adds of words in registers");
	for (int k = 0; k < VK_REF_KINDS; k++) {
		vk_json_double(j, vk_bench_ref_keys[k].run, rep->reference.ns[k]);
		vk_json_array(j, vk_bench_ref_keys[k].each);
		for (int i = 0; i < rep->nref; i++)
			vk_json_double(j, NULL, rep->ref[i].ns[k]);
		vk_json_end(j);
	}
	vk_json_end(j);
}

static void bench(const struct vk_out *o, const struct vk_bench_report *rep)
{
	FILE *f = o->f;
	const struct vk_envelope d = {
		.command = "bench", .version = VK_BENCH_VERSION, .tool_version = rep->version,
		.build = rep->build, .release = rep->uts.release, .machine = rep->uts.machine,
		.clocksource = rep->clocksource, .options = bench_options,
		.environment = bench_environment, .ctx = rep,
	};
	struct vk_json j;

	vk_json_init(&j, f);
	vk_doc_begin(&j, NULL, &d);
	vk_json_str(&j, VK_BF_TIME, rep->time);
	if (rep->run_id[0])
		vk_json_str(&j, VK_BF_RUN_ID, rep->run_id);
	vk_json_object(&j, VK_BF_TIMER);
	vk_json_str(&j, VK_BF_TIMER_NAME, rep->timer->name);
	vk_json_double(&j, VK_BF_TIMER_GHZ, 1 / rep->timer->ns_per_tick);
	vk_json_double(&j, VK_BF_TIMER_OVERHEAD, rep->timer->overhead * rep->timer->ns_per_tick);
	vk_json_end(&j);
	if (rep->boots)
		vk_json_uint(&j, VK_BF_BOOTS, rep->boots);
	bench_reference(&j, rep);
	vk_json_array(&j, VK_BF_RESULTS);
	for (size_t i = 0; i < rep->n; i++) {
		const struct vk_bench_row row = rep->rows ? rep->rows[i] : bench_result_row(&rep->r[i]);

		bench_row(&j, &row, rep->cold);
	}
	vk_json_end(&j);
	vk_json_end(&j);
}

static void compare_options(struct vk_json *j, const void *ctx)
{
	const struct vk_compare_report *c = ctx;

	vk_json_double(j, "threshold_pct", c->threshold);
}

/* The compared runs' environments: each setting, old and new. */
static void compare_environments(struct vk_json *j, const struct vk_compare_report *c)
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
static void compare_failed(struct vk_json *j, const struct vk_compare_report *c)
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

static void compare(const struct vk_out *o, const struct vk_compare_report *c)
{
	FILE *f = o->f;
	const struct vk_envelope d = { .command = "compare", .version = VK_COMPARE_VERSION,
				  .tool_version = c->version, .sys = c->sys, .options = compare_options,
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
		compare_failed(&j, c);
	vk_json_object(&j, "summary");
	vk_json_uint(&j, "compared", c->nrows);
	vk_json_uint(&j, "regressions", c->regressions);
	vk_json_uint(&j, "improvements", c->improvements);
	vk_json_uint(&j, "unchanged", c->unchanged);
	vk_json_uint(&j, "no_verdict", c->no_verdict);
	vk_json_uint(&j, "not_compared", c->not_compared);
	vk_json_double(&j, "geomean", c->geomean);
	vk_json_end(&j);
	compare_environments(&j, c);
	vk_json_end(&j);
}

static void info_system(struct vk_json *j, const struct vk_info *in)
{
	const struct vk_sysinfo *s = &in->sys;

	vk_json_str(j, "kernel_version", s->uts.version);
	vk_json_object(j, "clocksource");
	vk_json_str(j, "current", s->clocksource[0] ? s->clocksource : NULL);
	vk_json_str(j, "available", s->clocksources[0] ? s->clocksources : NULL);
	vk_json_str(j, "vdso_capable", vk_report_tristate(s->cs_vdso));
	vk_json_str(j, "note", s->cs_note);
	vk_json_end(j);
	vk_json_object(j, "time_namespace");
	vk_json_str(j, "non_initial", vk_report_tristate(s->timens));
	vk_json_str(j, "supported", vk_report_tristate(s->timens_kernel));
	vk_json_str(j, "can_make", vk_report_tristate(s->timens_new));
	vk_json_str(j, "note", s->timens_note);
	if (s->have_offsets) {
		vk_json_double(j, "monotonic_offset", s->mono_offset[0] + s->mono_offset[1] / 1e9);
		vk_json_double(j, "boottime_offset", s->boot_offset[0] + s->boot_offset[1] / 1e9);
	}
	vk_json_end(j);
	vk_json_object(j, "vsyscall");
	vk_json_str(j, "mode", vk_vsyscall_mode_name(in->vsyscall.mode));
	vk_json_str(j, "readable", vk_report_tristate(in->vsyscall.readable));
	vk_json_str(j, "note", in->vsyscall.note);
	vk_json_end(j);
}

static void info_sym(struct vk_json *j, const char *key, const struct vk_elf_sym *s)
{
	vk_json_object(j, key);
	vk_json_str(j, "name", s->name);
	vk_json_str(j, "version", s->version);
	vk_json_bool(j, "hidden", s->hidden);
	vk_json_uint(j, "index", s->index);
	vk_json_uint(j, "value", s->value);
	vk_json_uint(j, "size", s->size);
	vk_json_str(j, "type", vk_elf_sym_type_name(s->type));
	vk_json_str(j, "bind", vk_elf_sym_bind_name(s->bind));
	vk_json_end(j);
}

static void info_image(struct vk_json *j, const struct vk_info *in)
{
	const struct vk_elf *e = &in->im->elf;
	struct vk_elf_verdef v;

	vk_json_str(j, "source", in->im->source);
	if (in->im->live)
		vk_json_uint(j, "base", (uintptr_t)e->base);
	vk_json_uint(j, "size", in->size);
	vk_json_int(j, "class", e->is64 ? 64 : 32);
	vk_json_str(j, "byte_order", e->big_endian ? "big" : "little");
	vk_json_uint(j, "machine", e->machine);
	vk_json_str(j, "machine_name", vk_elf_machine_name(e->machine));
	vk_json_str(j, "abi", in->im->arch ? in->im->arch->name : NULL);
	vk_json_str(j, "soname", e->soname);
	vk_json_str(j, "linux_note", in->linux_note[0] ? in->linux_note : NULL);
	vk_json_str(j, "build_id", in->build_id[0] ? in->build_id : NULL);
	vk_json_array(j, "hash_tables");
	if (e->gnu_hash.size)
		vk_json_str(j, NULL, "DT_GNU_HASH");
	if (e->hash.size)
		vk_json_str(j, NULL, "DT_HASH");
	vk_json_end(j);
	vk_json_str(j, "symbols_from", vk_elf_symsrc_name(e->symsrc));
	vk_json_str(j, "hash_problem", in->hash_problem[0] ? in->hash_problem : NULL);
	vk_json_str(j, "warning", e->warn[0] ? e->warn : NULL);
	vk_json_array(j, "versions");
	for (size_t i = 0; vk_elf_verdef(e, i, &v) == 0; i++) {
		vk_json_object(j, NULL);
		vk_json_str(j, "name", v.name);
		vk_json_uint(j, "index", v.index);
		vk_json_bool(j, "base", v.flags & 1);
		vk_json_end(j);
	}
	vk_json_end(j);
}

static void info_funcs(struct vk_json *j, const struct vk_info *in)
{
	vk_json_array(j, "functions");
	for (int i = 0; i < VK_NALLFUNCS; i++) {
		const struct vk_info_func *fn = &in->funcs[i];

		if (!fn->applies)
			continue;
		vk_json_object(j, NULL);
		vk_json_str(j, "function", vk_funcs[fn->id].name);
		vk_json_str(j, "wanted", fn->f.want);
		vk_json_str(j, "wanted_version", fn->f.want_version);
		vk_json_bool(j, "found", fn->f.found);
		if (fn->f.found || fn->f.wrong_version)
			info_sym(j, "symbol", &fn->f.sym);
		vk_json_str(j, "runs", fn->runs[0] ? fn->runs : NULL);
		vk_json_str(j, "y2038", fn->y2038);
		vk_json_str(j, "absent", fn->absent);
		vk_json_str(j, "follows", fn->follows);
		vk_json_end(j);
	}
	vk_json_end(j);
}

static void info_symbols(struct vk_json *j, const struct vk_elf *e)
{
	struct vk_elf_sym s;

	vk_json_array(j, "symbols");
	for (size_t i = 1; i < e->nsyms; i++) {
		if (vk_elf_sym(e, i, &s) == 0)
			info_sym(j, NULL, &s);
	}
	vk_json_end(j);
}

static void info(const struct vk_out *o, const struct vk_info *in)
{
	FILE *f = o->f;
	const struct vk_envelope d = { .command = "info", .version = 1, .tool_version = in->version,
				  .build = in->build_abi, .release = in->sys.uts.release,
				  .machine = in->sys.uts.machine, .clocksource = in->sys.clocksource };
	struct vk_json j;

	vk_json_init(&j, f);
	vk_doc_begin(&j, NULL, &d);
	info_system(&j, in);
	vk_json_object(&j, "vdso");
	vk_json_bool(&j, "present", in->im != NULL);
	if (in->im) {
		info_image(&j, in);
		info_funcs(&j, in);
		vk_json_int(&j, "nulled_symbols", in->nulled);
		info_symbols(&j, &in->im->elf);
	} else {
		vk_json_str(&j, "reason", in->no_image);
	}
	vk_json_end(&j);
	vk_json_end(&j);
}

static void apis(const struct vk_out *o, const struct vk_api_list *l)
{
	FILE *f = o->f;
	const struct vk_envelope d = { .command = "list-apis", .version = 1, .tool_version = l->version,
				       .sys = l->sys };
	struct vk_json j;

	vk_json_init(&j, f);
	vk_doc_begin(&j, NULL, &d);
	vk_json_str(&j, "image", l->image);
	vk_json_str(&j, "abi", l->abi);
	vk_json_array(&j, "apis");
	for (size_t i = 0; i < l->n; i++) {
		const struct vk_api_row *r = &l->rows[i];
		const struct vk_func_info *fn = &vk_funcs[r->api->func];
		long nr = !fn->syscall ? -1 : l->sysno ? l->sysno[r->api->func] : -2;

		vk_json_object(&j, NULL);
		vk_json_str(&j, "name", r->api->name);
		vk_json_str(&j, "function", fn->name);
		if (r->api->clock >= 0)
			vk_json_int(&j, "clock", r->api->clock);
		vk_json_str(&j, "symbol", r->f.want[0] ? r->f.want : NULL);
		vk_json_str(&j, "version", r->f.want_version);
		vk_json_str(&j, "libc", fn->libc);
		/* Without the ABI's numbers: the syscall's name, no number. */
		vk_json_str(&j, "syscall", nr < -1 || nr >= 0 ? fn->syscall : NULL);
		if (nr >= 0)
			vk_json_int(&j, "sysno", nr);
		vk_json_str(&j, "status", vk_report_api_status(l, r));
		vk_json_end(&j);
	}
	vk_json_end(&j);
	vk_json_end(&j);
}

static void inspect_func(struct vk_json *j, const struct vk_insp_func *fn)
{
	vk_json_object(j, NULL);
	vk_json_str(j, "name", fn->name);
	vk_json_str(j, "version", fn->version[0] ? fn->version : NULL);
	vk_json_uint(j, "address", fn->addr);
	vk_json_uint(j, "size", fn->size);
	vk_json_bool(j, "size_guessed", fn->size_guessed);
	vk_json_uint(j, "instructions", fn->insns);
	vk_json_uint(j, "undecoded", fn->undecoded);
	vk_json_uint(j, "frame", fn->frame);
	vk_json_str(j, "barriers_and_counters", fn->fences);
	vk_json_object(j, "sites");
	for (size_t k = 0; k < VK_INSP_NKINDS; k++) {
		size_t n = fn->count[k] < VK_INSP_SITES ? fn->count[k] : VK_INSP_SITES;

		vk_json_object(j, vk_report_insp_kinds[k]);
		vk_json_uint(j, "count", fn->count[k]);
		vk_json_array(j, "listed");
		for (size_t i = 0; i < n; i++) {
			vk_json_object(j, NULL);
			vk_json_uint(j, "address", fn->site[k][i].addr);
			vk_json_str(j, "instruction", fn->site[k][i].text);
			vk_json_str(j, "what", fn->site[k][i].what[0] ? fn->site[k][i].what : NULL);
			vk_json_end(j);
		}
		vk_json_end(j);
		vk_json_end(j);
	}
	vk_json_end(j);
	vk_json_end(j);
}

static void inspect_image(struct vk_json *j, const struct vk_inspect *in)
{
	static const char *const st[] = { "pass", "fail", "skip" };

	vk_json_object(j, NULL);
	vk_json_str(j, "source", in->source);
	vk_json_str(j, "arch", in->arch);
	vk_json_str(j, "triple", in->triple);
	vk_json_array(j, "functions");
	for (size_t i = 0; i < in->nfuncs; i++)
		inspect_func(j, &in->funcs[i]);
	vk_json_end(j);
	vk_json_uint(j, "functions_not_read", in->more_funcs);
	vk_json_array(j, "checks");
	for (size_t i = 0; i < VK_INSP_NCHECKS; i++) {
		vk_json_object(j, NULL);
		vk_json_str(j, "name", in->check[i].name);
		vk_json_str(j, "status", st[in->check[i].status]);
		vk_json_str(j, "detail", in->check[i].detail);
		vk_json_end(j);
	}
	vk_json_end(j);
	vk_json_object(j, "totals");
	vk_json_uint(j, "pass", VK_INSP_NCHECKS - in->fails - in->skips);
	vk_json_uint(j, "fail", in->fails);
	vk_json_uint(j, "skip", in->skips);
	vk_json_end(j);
	vk_json_end(j);
}

static void inspect(const struct vk_out *o, const struct vk_inspect_report *r)
{
	const struct vk_envelope d = { .command = "inspect", .version = 1,
				       .tool_version = r->version, .sys = r->sys };
	struct vk_json j;

	vk_json_init(&j, o->f);
	vk_doc_begin(&j, NULL, &d);
	vk_json_array(&j, "images");
	for (size_t i = 0; i < r->n; i++)
		inspect_image(&j, r->img[i]);
	vk_json_end(&j);
	if (r->diff) {
		vk_json_array(&j, "diff");
		for (size_t i = 0; i < r->diff->n; i++) {
			const struct vk_insp_diff_row *row = &r->diff->rows[i];

			vk_json_object(&j, NULL);
			vk_json_str(&j, "function", row->name);
			vk_json_bool(&j, "in_a", row->a >= 0);
			vk_json_bool(&j, "in_b", row->b >= 0);
			vk_json_bool(&j, "changed", row->changed);
			vk_json_end(&j);
		}
		vk_json_end(&j);
	}
	vk_json_end(&j);
}

const struct vk_formatter vk_formatter_json = {
	.name = "json", .results = results, .bench = bench, .compare = compare, .info = info,
	.apis = apis, .inspect = inspect,
};
