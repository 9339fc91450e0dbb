// SPDX-License-Identifier: MIT
/*
 * `vdsokit all`'s report of fixed steps, in the format argv[1] names:
 * all runs every command live, so the golden files prove its report on
 * documents made here instead (tests/golden/cases.sh). The steps have
 * what a report can show: info's functions found, not found and where
 * they run (a futex unlock of each); results passed with a note, failed
 * and skipped; bench rows with and without a CI and skipped; a step that could not run; a
 * finding, an unconfirmed failure and a warning; every outcome. HTML draws each row's samples.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/base/array.h"
#include "core/result/findings.h"
#include "report/format.h"
#include "report/summary.h"

static struct vk_info info = { .version = "0.0.0-test", .build_abi = "x86_64" };
static struct vk_results verify, fallback;
static struct vk_bench_result rows[3];
static struct vk_bench_report bench = { .version = "0.0.0-test", .r = rows, .n = 3 };
static struct vk_findings findings;
static struct vk_warnings warnings = { .n = 1 };

static void make_info(void)
{
	for (int i = 0; i < VK_NALLFUNCS; i++) {
		struct vk_info_func *fn = &info.funcs[i];

		fn->id = i;
		fn->applies = i != VK_FN_TIME;
		info.napply += fn->applies;
		fn->f.found = i != VK_FN_GETRANDOM && i != VK_FN_FUTEX_UNLOCK32;
		snprintf(fn->f.want, sizeof(fn->f.want), "__vdso_%s", vk_funcs[i].name);
		if (i == VK_FN_CLOCK_GETTIME) {
			snprintf(fn->runs, sizeof(fn->runs), "userspace");
			fn->ran = VK_RAN_USERSPACE;
		}
	}
	info.size = 8192;
}

static void make_results(void)
{
	struct vk_result *r;

	r = vk_results_add(&verify, "clock-gettime-monotonic", VK_PATH_VDSO, "monotonic");
	r->calls = 1000;
	snprintf(r->detail, sizeof(r->detail), "the tightest bracket was 12 ns");
	r = vk_results_add(&verify, "clock-gettime-monotonic", VK_PATH_LIBC, "ordering");
	r->calls = 1000;
	vk_result_fail(&verify, r, "stepped back by %d ns \"quoted\"", 40);
	r = vk_results_add(&verify, "getrandom", VK_PATH_VDSO, "flags");
	vk_result_skip(r, "the vDSO does not export it");
	/* A failure a plain call afresh did not show again: no finding. */
	r = vk_results_add(&verify, "clock-gettime-id:12", VK_PATH_VDSO, "errno");
	r->calls = 1;
	vk_result_fail(&verify, r, "clock 12: vdso returned 0 (success), the syscall -22");
	vk_result_plain(r, 0, 0, -22);
	vk_result_unconfirm(&verify, r, "a vdsokit exec()ed afresh got -22 (EINVAL) from vdso as from the syscall");
	r = vk_results_add(&fallback, "clock-gettime-tai", VK_PATH_VDSO, "fallback");
	snprintf(r->detail, sizeof(r->detail), "syscall: clock_gettime (the clock's mode)");
	r->ran = VK_RAN_SYSCALL;
	r = vk_results_add(&fallback, "clock-gettime-monotonic", VK_PATH_VDSO, "fallback");
	snprintf(r->detail, sizeof(r->detail), "userspace");
	r->ran = VK_RAN_USERSPACE;
	vk_findings_add(&findings, "verify", &verify);
}

static void make_bench(void)
{
	static const struct vk_bench_result r[] = {
		{ "clock-gettime-monotonic", VK_PATH_VDSO, .median = 20.5, .min = 19.9, .ci_lo = 20.1,
		  .ci_hi = 21, .cv = 1.5, .n = 50, .ngroups = 10 },
		{ "clock-gettime-monotonic", VK_PATH_SYSCALL, .median = 250.25, .min = 240,
		  .ci_lo = NAN, .n = 5, .ngroups = 1 },
		{ "getrandom", VK_PATH_VDSO, .skipped = "the vDSO does not export it" },
	};

	memcpy(rows, r, sizeof(r));
	for (int k = 0; k < rows[0].n; k++)
		rows[0].samples[k] = 20 + k % 7 * 0.25;
	for (int k = 0; k < rows[1].n; k++)
		rows[1].samples[k] = 240 + k * 5;
	warnings.w[0] = (struct vk_warning){ "turbo is on", "no_turbo is 0", "turn it off" };
	bench.warnings = warnings;
}

int main(int argc, char **argv)
{
	/* all's summary's formats: text, ktap, html and openmetrics. */
	static const struct vk_formats formats = { VK_DOC_SUMMARY, VK_FMT_NONE };
	const struct vk_summary_step steps[] = {
		{ "info", VK_OUTCOME_OK, 7, 0, 2, .info = &info },
		{ "verify", VK_OUTCOME_FAIL, 1, 2, 1, .unconfirmed = 1, .rs = &verify },
		{ "timens", VK_OUTCOME_SKIP, 0, 0, 1, .note = "no time namespaces here" },
		{ "abi", VK_OUTCOME_ERROR, .note = NULL },
		{ "fallback", VK_OUTCOME_OK, 2, 0, 0, .rs = &fallback },
		{ "bench", VK_OUTCOME_OK, 2, 0, 1, .bench = rows, .nbench = 3, .bench_run = &bench },
	};
	struct vk_summary sum = {
		.version = "0.0.0-test", .info = &info, .steps = steps,
		.nsteps = ARRAY_SIZE(steps), .findings = &findings,
		.warnings = &warnings, .call_map = &fallback, .outcome = VK_OUTCOME_FAIL,
		.nhead = 1,
	};
	int format = argc == 2 ? vk_format_parse(argv[1], &formats) : -1;

	if (format < 0) {
		fprintf(stderr, "usage: report_all FORMAT (text, ktap, html or openmetrics)\n");
		return 2;
	}
	sum.head[0] = (struct vk_headline){ "clock-gettime-monotonic", { NAN, NAN, NAN, NAN }, NAN };
	sum.head[0].ns[VK_PATH_VDSO] = 20.5;
	sum.head[0].ns[VK_PATH_SYSCALL] = 250.25;
	make_info();
	make_results();
	/* A name whose label value needs each escape (not in the text and
	 * KTAP files, which were recorded before openmetrics). */
	if (format == VK_FMT_OPENMETRICS)
		vk_results_add(&fallback, "odd\\\"name\"\n", VK_PATH_IMPL, "fallback")->ran =
			VK_RAN_SYSCALL;
	make_bench();
	vk_summary_finish(&sum);
	vk_render(stdout, format, &(const struct vk_doc){ .command = "all", .kind = VK_DOC_SUMMARY,
							  .summary = &sum });
	return 0;
}
