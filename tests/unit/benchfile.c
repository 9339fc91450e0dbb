// SPDX-License-Identifier: MIT
/*
 * core/benchfile on planted bench files: the runs of a side merged as
 * compare and vm's A/B both merge them (every run's processes in turn, a
 * reference over every process), a run checked before it is merged, and
 * the one lookup by API and path.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/base/array.h"
#include "core/benchfile/benchfile.h"
#include "tests/unit/test.h"

/* A bench/2 file of kernel rel: time measured by two processes, getcpu skipped. */
static void planted(char *buf, size_t len, const char *rel, const char *samples,
		    const char *procs, const char *ref)
{
	snprintf(buf, len,
		 "{\"schema\": \"vdsokit-bench/2\", \"environment\": {\"kernel\": {\"release\": \"%s\","
		 " \"machine\": \"x86_64\"}, \"cpu_model\": \"planted\", \"options\": {\"cold\": false}},"
		 " \"reference\": {\"ns_per_step\": 1, \"processes_ns\": [%s]},"
		 " \"results\": [{\"api\": \"time\", \"path\": \"vdso\", \"samples_ns\": [%s],"
		 " \"process_samples_ns\": [%s]},"
		 " {\"api\": \"getcpu\", \"path\": \"vdso\", \"skipped\": \"not exported\"}]}",
		 rel, ref, samples, procs);
}

static void count(const struct vk_bf_mismatch *m, void *n)
{
	(void)m;
	++*(int *)n;
}

static void merged(void)
{
	struct vk_compare_runs r = { 0 };
	struct vk_compare_report rep = { .threshold = 5 };
	struct vk_bench_report br = { 0 };
	struct vk_timer timer;
	struct vk_bf_err e;
	char text[2][1024];
	int ok, differ = 0;

	planted(text[0], sizeof(text[0]), "6.1", "2, 3, 4", "[2, 3], [4]", "1, 2");
	planted(text[1], sizeof(text[1]), "6.12", "5, 6", "[5, 6]", "4");
	ok = !vk_compare_runs_open(&r, 2, &e) &&
	     !vk_compare_runs_parse(&r, "boot 1", text[0], strlen(text[0]), &e) &&
	     !vk_compare_runs_parse(&r, "boot 2", text[1], strlen(text[1]), &e) &&
	     !vk_compare_runs_merge(&r, &e);
	CHECK(ok, "two runs read and merged");
	if (!ok)
		return;
	CHECK(r.n == 2 && !strcmp(r.names, "boot 1, boot 2"), "one series per API and path: %zu",
	      r.n);
	CHECK(r.s[0].n == 5 && r.s[0].ngroups == 3 && r.s[0].ns[4] == 6 &&
	      r.s[0].group_n[0] == 2 && r.s[0].group_n[2] == 2,
	      "time has every run's processes in turn");
	CHECK(r.s[1].skipped && !strcmp(r.s[1].skipped, "not exported") && !r.s[1].ns,
	      "a skipped row keeps why");
	CHECK(vk_series_find(r.s, r.n, "getcpu", "vdso") == &r.s[1] &&
	      !vk_series_find(r.s, r.n, "getcpu", "syscall"), "rows are found by API and path");

	CHECK(!vk_compare_runs_report(&r, &br, &timer, &e) && br.boots == 2 && br.n == 2 &&
	      br.rows[0].ngroups == 3 && br.rows[1].skipped && br.nref == 3 &&
	      br.reference.ns[VK_REF_CPU] == 2,
	      "the merged side as one bench file: 2 runs, 3 processes, the reference their median");
	vk_compare_runs_report_free(&br);

	/* The same side against itself: its second run is of another kernel. */
	vk_compare_runs_context(&rep, &r, &r, count, &differ);
	CHECK(differ == 2, "a run of another kernel within a side is told, once a side: %d", differ);
	CHECK(!strcmp(rep.env[0].old, "6.1"), "the environment is the first run's");
	vk_compare_free_runs(&r);
}

static void refused(void)
{
	static const struct {
		const char *samples, *procs, *why;
	} bad[] = {
		{ "-5", "[-5]", "boot: results[0].samples_ns[0]: -5 is not a positive time" },
		{ "2", "[]", "boot: results[0].process_samples_ns[0]: the array is empty" },
		{ "2, 3", "[2, \"x\"]", "boot: results[0].process_samples_ns[0][1]: \"x\" is not a number" },
	};
	char text[1024];

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct vk_compare_runs r = { 0 };
		struct vk_bf_err e = { "" };
		int status = vk_compare_runs_open(&r, 1, &e);

		planted(text, sizeof(text), "6.1", bad[i].samples, bad[i].procs, "1");
		status = status || vk_compare_runs_parse(&r, "boot", text, strlen(text), &e);
		CHECK(status && !strcmp(e.msg, bad[i].why), "refused, saying why: %s", e.msg);
		vk_compare_free_runs(&r);
	}
}

/*
 * vm's A/B: a boot whose calls failed on a row fails the merged row,
 * whatever the other boots measured; it stays failed in the merged file.
 */
static void failed(void)
{
	static const char bad[] =
		"{\"schema\": \"vdsokit-bench/2\", \"results\": [{\"api\": \"time\","
		" \"path\": \"vdso\", \"skipped\": \"time failed: EINVAL\", \"failed_calls\": 7}]}";
	struct vk_compare_runs r = { 0 };
	struct vk_compare_report rep = { 0 };
	struct vk_compare_failed f[3];
	struct vk_bench_report br = { 0 };
	struct vk_timer timer;
	struct vk_bf_err e = { "" };
	char text[1024];
	int status;

	planted(text, sizeof(text), "6.1", "2, 3", "[2, 3]", "1");
	status = vk_compare_runs_open(&r, 2, &e) ||
		 vk_compare_runs_parse(&r, "boot 1", text, strlen(text), &e) ||
		 vk_compare_runs_parse(&r, "boot 2", bad, strlen(bad), &e) ||
		 vk_compare_runs_merge(&r, &e);
	CHECK(!status && r.s[0].failed == 7 && !strcmp(r.s[0].skipped, "time failed: EINVAL"),
	      "a row failed in one boot is failed in the merge, saying how: %s", e.msg);
	vk_compare_failed_rows(&rep, f, r.s, r.n, r.s, r.n);
	CHECK(rep.nfailed == 2 && !strcmp(f[1].side, "new") && !strcmp(f[0].api, "time") &&
	      !strcmp(f[0].why, "time failed: EINVAL"), "and a failed row of compare's, each side");
	status = status || vk_compare_runs_report(&r, &br, &timer, &e);
	CHECK(!status && br.rows[0].failed == 7 && br.rows[0].skipped,
	      "and in the merged file, a row skipped for it");
	vk_compare_runs_report_free(&br);
	vk_compare_free_runs(&r);
}

/* A row whose processes do not hold its samples cannot be written as one file. */
static void torn(void)
{
	struct vk_compare_runs r = { 0 };
	struct vk_bench_report br = { 0 };
	struct vk_timer timer;
	struct vk_bf_err e = { "" };
	char text[1024];
	int status;

	planted(text, sizeof(text), "6.1", "2, 3, 4", "[2]", "1");
	status = vk_compare_runs_open(&r, 1, &e) ||
		 vk_compare_runs_parse(&r, "boot", text, strlen(text), &e) ||
		 vk_compare_runs_merge(&r, &e);
	CHECK(!status, "a file whose processes hold fewer samples than samples_ns is read");
	status = vk_compare_runs_report(&r, &br, &timer, &e);
	CHECK(status && strstr(e.msg, "time on vdso: its processes' samples are not its samples_ns"),
	      "but not written as a merged file: %s", e.msg);
	vk_compare_runs_report_free(&br);
	vk_compare_free_runs(&r);
}

/* vdsotest -v's line: an API's calls on each path, its rows' summed. */
static void api_calls(void)
{
	static const struct vk_bench_result r[] = {
		{ "time", VK_PATH_VDSO, .calls = 5 }, { "time", VK_PATH_SYSCALL, .calls = 3 },
		{ "time", VK_PATH_VDSO, .calls = 2 },
	};
	unsigned long long calls[VK_NPATHS] = { 9, 9, 9, 9 };

	vk_bench_api_calls(r, 3, calls);
	CHECK(calls[VK_PATH_VDSO] == 7 && calls[VK_PATH_SYSCALL] == 3 && !calls[VK_PATH_LIBC] &&
	      !calls[VK_PATH_IMPL], "an API's calls by path: vdso %llu, syscall %llu, libc %llu",
	      calls[VK_PATH_VDSO], calls[VK_PATH_SYSCALL], calls[VK_PATH_LIBC]);
}

int main(void)
{
	merged();
	refused();
	torn();
	failed();
	api_calls();
	return test_exit();
}
