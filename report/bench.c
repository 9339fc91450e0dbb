// SPDX-License-Identifier: MIT
/*
 * Prints bench's figures as measured, in each format; the figures come
 * from core/bench.
 */
#include <math.h>
#include <string.h>

#include "core/base/array.h"
#include "core/benchfile/keys.h"
#include "report/bench.h"
#include "report/doc.h"
#include "report/out.h"
#include "report/report.h"

/* "-" where one process left no spread to measure. */
static const char *num(char *buf, size_t len, double x)
{
	snprintf(buf, len, isfinite(x) ? "%.1f" : "-", x);
	return buf;
}

static const char *ci(char *buf, size_t len, const struct vk_bench_result *r)
{
	char lo[24], hi[24];

	snprintf(buf, len, "%9s - %9s", num(lo, sizeof(lo), r->ci_lo), num(hi, sizeof(hi), r->ci_hi));
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

void vk_report_bench_text(const struct vk_out *o, const struct vk_bench_report *rep)
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
			vk_path_name(r->path), r->median, r->min, ci(buf, sizeof(buf), r),
			num(stat_buf, sizeof(stat_buf), rep->cold ? r->p90 : r->cv), r->n,
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

static void json_figures(struct vk_json *j, const struct vk_bench_result *r, int cold)
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
static void json_failed(struct vk_json *j, const struct vk_bench_row *row)
{
	vk_json_uint(j, VK_BF_FAILED, row->failed);
	if (!row->r)
		return;
	vk_json_uint(j, VK_BF_CALLS, row->r->failed_of);
	vk_json_str(j, VK_BF_CALL, row->r->call);
	vk_json_int(j, VK_BF_ERRNO, row->r->err);
}

static void json_row(struct vk_json *j, const struct vk_bench_row *row, int cold)
{
	vk_json_object(j, NULL);
	vk_json_str(j, VK_BF_API, row->api);
	vk_json_str(j, VK_BF_PATH, row->path);
	if (row->skipped) {
		vk_json_str(j, VK_BF_SKIPPED, row->skipped);
		if (row->failed)
			json_failed(j, row);
		if (row->r && row->r->crashed)
			vk_json_bool(j, VK_BF_CRASHED, 1);
		vk_json_end(j);
		return;
	}
	if (row->r)
		json_figures(j, row->r, cold);
	vk_json_array(j, VK_BF_SAMPLES_NS);
	for (int i = 0; i < row->n; i++)
		vk_json_double(j, NULL, row->samples[i]);
	vk_json_end(j);
	process_samples(j, row);
	vk_json_end(j);
}

/* A measured result as a row: its figures and its samples. */
static struct vk_bench_row result_row(const struct vk_bench_result *r)
{
	return (struct vk_bench_row){
		.api = r->api, .path = vk_path_name(r->path), .skipped = r->skipped,
		.failed = r->failed, .r = r,
		.samples = r->samples, .n = r->n, .group_n = r->group_n, .ngroups = r->ngroups,
	};
}

static void json_options(struct vk_json *j, const void *ctx)
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
static void json_environment(struct vk_json *j, const void *ctx)
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

static void json_reference(struct vk_json *j, const struct vk_bench_report *rep)
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

void vk_report_bench_json(const struct vk_out *o, const struct vk_bench_report *rep)
{
	FILE *f = o->f;
	const struct vk_envelope d = {
		.command = "bench", .version = VK_BENCH_VERSION, .tool_version = rep->version,
		.build = rep->build, .release = rep->uts.release, .machine = rep->uts.machine,
		.clocksource = rep->clocksource, .options = json_options,
		.environment = json_environment, .ctx = rep,
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
	json_reference(&j, rep);
	vk_json_array(&j, VK_BF_RESULTS);
	for (size_t i = 0; i < rep->n; i++) {
		const struct vk_bench_row row = rep->rows ? rep->rows[i] : result_row(&rep->r[i]);

		json_row(&j, &row, rep->cold);
	}
	vk_json_end(&j);
	vk_json_end(&j);
}


