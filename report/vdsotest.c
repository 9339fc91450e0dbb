// SPDX-License-Identifier: MIT
/*
 * Results as vdsotest prints them, for the farms that parse its output:
 * a description padded to 70 columns, then OK, FAIL or SKIP. vdsotest's
 * own cases keep its descriptions, "passing NULL to clock_gettime (VDSO)";
 * vdsokit's are "API COMMAND CHECK (PATH)", which the farms' parsing
 * turns into a name unique to that result. Why a check failed goes to
 * stderr, as vdsotest's failures do. vdsotest prints its result lines
 * only when -v or -g asks; vdsokit's own --format vdsotest always does.
 * With -g, vdsotest's debug lines too, as its debug() prints them.
 * Bench's figures as vdsotest's bench prints them, "API: PATH: N
 * nsec/call".
 */
#include <stdarg.h>
#include <string.h>

#include "core/base/array.h"
#include "core/benchfile/model.h"
#include "report/format.h"
#include "report/out.h"
#include "report/report.h"
#include "report/safe.h"

/* -1: vdsokit's own --format vdsotest, every result line; else vdsotest's -v. */
static int verbose = -1;

void vk_report_vdsotest_verbose(int on)
{
	verbose = on;
}

static int debug;

void vk_report_vdsotest_debug(int on)
{
	debug = on;
}

void vk_report_vdsotest_debug_line(const char *fn, int line, const char *fmt, ...)
{
	va_list ap;

	if (!debug)
		return;
	printf("%s:%d: ", fn, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	/* Now: verify's checks run in a child, which leaves by _exit(). */
	fflush(stdout);
}

void vk_report_vdsotest_moved(const char *fn, int line, int cpu)
{
	if (cpu < 0)
		vk_report_vdsotest_debug_line(fn, line, "resetting cpus_allowed to original\n");
	else
		vk_report_vdsotest_debug_line(fn, line, "migrating off cpu %d\n", cpu);
}

static const char *word(enum vk_status s)
{
	static const char *const name[] = { [VK_PASS] = "OK", [VK_FAIL] = "FAIL",
					    [VK_SKIP] = "SKIP", [VK_ERROR] = "ERROR" };

	return name[s];
}

/* A check's name with only the characters a farm's result name can hold:
 * letters, digits, "_.-", and ":," which the farms turn into separators. */
static void clean(char *out, size_t len, const char *check)
{
	size_t i;

	for (i = 0; check[i] && i + 1 < len; i++)
		out[i] = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-:,",
				check[i]) ? check[i] : '_';
	out[i] = '\0';
}

/* Flushed first, so that a farm reading both streams gets whole lines;
 * each case that broke after the first's values. */
static void why(FILE *f, const char *desc, const struct vk_result *x)
{
	char cases[VK_RESULT_CASES * 40];

	if (x->status != VK_FAIL && x->status != VK_ERROR)
		return;
	vk_report_cases(cases, sizeof(cases), x);
	fflush(f);
	fprintf(stderr, "%s: %s%s%s%s%s\n", desc,
		x->status == VK_ERROR ? "not tested, vdsokit's own error: " : "", vk_safe(x->detail),
		cases[0] ? " (each case that broke: " : "", cases, cases[0] ? ")" : "");
}

static void legacy(FILE *f, const struct vk_results *rs)
{
	char desc[96];

	for (size_t i = 0; rs && i < rs->n; i++) {
		const struct vk_result *x = rs->r[i];

		snprintf(desc, sizeof(desc), "%s (%s)", x->check,
			 x->path == VK_PATH_SYSCALL ? "syscall" : "VDSO");
		if (verbose)
			fprintf(f, "%-70s %s\n", desc, word(x->status));
		why(f, desc, x);
	}
}

static void results(const struct vk_out *o, const struct vk_report *r)
{
	FILE *f = o->f;
	const struct vk_results *first = r->legacy && r->legacy->n ? r->legacy : r->rs;
	unsigned long long fails = r->rs->fails + (r->legacy ? r->legacy->fails : 0);
	char check[sizeof(r->rs->r[0]->check)], desc[160];

	legacy(f, r->legacy);
	for (size_t i = 0; i < r->rs->n; i++) {
		const struct vk_result *x = r->rs->r[i];

		clean(check, sizeof(check), x->check);
		snprintf(desc, sizeof(desc), "%s %s %s (%s)", x->api, r->command, check,
			 vk_path_name(x->path));
		if (verbose)
			fprintf(f, "%-70s %s\n", desc, word(x->status));
		why(f, desc, x);
	}
	if (fails && first->n)
		fprintf(f, "%s/%s: %llu failures/inconsistencies encountered\n", first->r[0]->api,
			r->command, fails);
}

/* vdsotest's -v line of one API's calls per path. */
static void counts(FILE *f, const struct vk_bench_result *r, size_t n)
{
	unsigned long long calls[VK_NPATHS];

	vk_bench_api_calls(r, n, calls);
	fprintf(f, "%s: syscalls = %llu, vdso calls = %llu, libc calls = %llu\n", r[0].api,
		calls[VK_PATH_SYSCALL], calls[VK_PATH_VDSO], calls[VK_PATH_LIBC]);
}

/*
 * vdsotest's own lines, which LKFT and MMTests parse: syscall, libc and
 * vdso, whole nanoseconds. Where vdsotest said "not tested", SKIP, so
 * that the farms, which name results by the words before it, record a
 * skip under the name the figure has (why goes to stderr); where the
 * calls failed or their worker died, FAIL likewise.
 */
static void bench(const struct vk_out *out, const struct vk_bench_report *rep)
{
	FILE *f = out->f;
	static const enum vk_path order[] = { VK_PATH_SYSCALL, VK_PATH_LIBC, VK_PATH_VDSO,
					      VK_PATH_IMPL };

	size_t end;

	for (size_t i = 0; i < rep->n; i = end) {
		for (end = i; end < rep->n && !strcmp(rep->r[end].api, rep->r[i].api); end++)
			;
		if (verbose == 1)
			counts(f, rep->r + i, end - i);
		for (size_t o = 0; o < ARRAY_SIZE(order); o++) {
			for (size_t k = i; k < end; k++) {
				const struct vk_bench_result *r = &rep->r[k];

				if (r->path != order[o])
					continue;
				if (r->failed || r->crashed) {
					fprintf(f, "%s: %7s: FAIL\n", r->api, vk_path_name(r->path));
					fflush(f);
					fprintf(stderr, "%s: %s: %s\n", r->api, vk_path_name(r->path),
						r->skipped);
				} else if (r->skipped) {
					fprintf(f, "%s: %7s: SKIP\n", r->api, vk_path_name(r->path));
					fflush(f);
					fprintf(stderr, "%s: %s: not tested: %s\n", r->api,
						vk_path_name(r->path), r->skipped);
				} else
					fprintf(f, "%s: %7s: %llu nsec/call\n", r->api,
						vk_path_name(r->path), (unsigned long long)r->median);
			}
		}
	}
}

const struct vk_formatter vk_formatter_vdsotest = { .name = "vdsotest", .results = results,
						    .bench = bench };
