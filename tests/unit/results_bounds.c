// SPDX-License-Identifier: MIT
/*
 * vk_results_bounds(), which text's one "Tested:" line is made of, on
 * planted results: only passing checks of the kind count, each API once.
 * And vk_results_tally(), every report's totals, and vk_results_group(),
 * text's line of one API on one path.
 */
#include "tests/unit/test.h"
#include "core/result/result.h"

static void add(struct vk_results *rs, const char *api, enum vk_path p, enum vk_status st,
		enum vk_bound kind, long long ns)
{
	struct vk_result *r = vk_results_add(rs, api, p, "ordered");

	r->status = st;
	r->bound = kind;
	r->bound_ns = ns;
}

int main(void)
{
	struct vk_results rs = { 0 };
	struct vk_bounds b;
	struct vk_tally t;
	struct vk_results_group g;

	b = vk_results_bounds(&rs, VK_BOUND_ORDER);
	CHECK(!b.checks && !b.apis && !b.lo && !b.hi, "no results: no bounds");
	add(&rs, "clock-gettime-monotonic", VK_PATH_VDSO, VK_PASS, VK_BOUND_ORDER, 1162);
	add(&rs, "clock-gettime-monotonic", VK_PATH_LIBC, VK_PASS, VK_BOUND_ORDER, 2800);
	add(&rs, "clock-gettime-monotonic-coarse", VK_PATH_VDSO, VK_PASS, VK_BOUND_ORDER, 0);
	add(&rs, "clock-gettime-tai", VK_PATH_VDSO, VK_SKIP, VK_BOUND_ORDER, 12000);
	add(&rs, "clock-gettime-boottime", VK_PATH_VDSO, VK_FAIL, VK_BOUND_ORDER, 1);
	add(&rs, "clock-gettime-boottime", VK_PATH_VDSO, VK_PASS, VK_BOUND_SKEW, 90000);
	add(&rs, "getrandom", VK_PATH_VDSO, VK_PASS, VK_BOUND_NONE, 0);
	b = vk_results_bounds(&rs, VK_BOUND_ORDER);
	CHECK(b.lo == 0 && b.hi == 2800, "the least and the most of the passing ones: %lld-%lld",
	      b.lo, b.hi);
	CHECK(b.checks == 3 && b.apis == 2,
	      "3 checks of 2 APIs: a SKIP, a failure and other kinds do not count (%zu, %zu)",
	      b.checks, b.apis);
	b = vk_results_bounds(&rs, VK_BOUND_SKEW);
	CHECK(b.checks == 1 && b.apis == 1 && b.lo == 90000 && b.hi == 90000,
	      "the skew bound alone: %zu checks, %lld-%lld", b.checks, b.lo, b.hi);
	t = vk_results_tally(&rs);
	CHECK(t.pass == 5 && t.fail == 1 && t.skip == 1,
	      "tallied: %zu passed, %zu failed, %zu skipped", t.pass, t.fail, t.skip);
	rs.r[4]->calls = 10;
	rs.r[5]->calls = 5;
	g = vk_results_group(&rs, 4);
	CHECK(g.end == 6 && g.n == 2 && g.calls == 15 && g.t.pass == 1 && g.t.fail == 1 &&
	      !g.t.skip && g.first_fail == rs.r[4]->check,
	      "boottime's vdso checks: up to %zu, %zu checks, %llu calls, %zu failed", g.end, g.n,
	      g.calls, g.t.fail);
	g = vk_results_group(&rs, 6);
	CHECK(g.end == 7 && g.n == 1 && g.t.pass == 1 && !g.first_fail,
	      "the last alone: up to %zu, no failure", g.end);
	vk_results_free(&rs);
	return test_exit();
}
