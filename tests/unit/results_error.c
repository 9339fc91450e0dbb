// SPDX-License-Identifier: MIT
/*
 * vdsokit's own error as a result's outcome (issue 47): counted apart
 * from failures and skips, outweighed by a failure of the same check,
 * and what vk_results_finish() makes of a check that compared nothing.
 */
#include <string.h>

#include "tests/unit/test.h"
#include "core/result/result.h"

int main(void)
{
	struct vk_results rs = { 0 };
	struct vk_result *err = vk_results_add(&rs, "getcpu", VK_PATH_VDSO, "cpu");
	struct vk_result *both = vk_results_add(&rs, "getcpu", VK_PATH_VDSO, "node");
	struct vk_result *none = vk_results_add(&rs, "getrandom", VK_PATH_VDSO, "differs");
	struct vk_result *ok = vk_results_add(&rs, "getrandom", VK_PATH_VDSO, "fork");
	struct vk_result *skip = vk_results_add(&rs, "time", VK_PATH_VDSO, "tloc");
	struct vk_results_group g;
	struct vk_tally t;

	err->calls = both->calls = ok->calls = 1;
	vk_result_error(&rs, err, "not tested: could not fork: %s", "EAGAIN");
	CHECK(err->status == VK_ERROR && rs.errors == 1 && !rs.fails,
	      "an error is counted as such, not as a failure (%llu, %llu)", rs.errors, rs.fails);
	CHECK(!strcmp(err->detail, "not tested: could not fork: EAGAIN"), "it is named: %s",
	      err->detail);
	vk_result_error(&rs, both, "not tested: first");
	vk_result_fail(&rs, both, "the vDSO said node 3");
	CHECK(both->status == VK_FAIL && rs.errors == 1 && rs.fails == 1,
	      "a failure after an error outweighs it (%llu errors, %llu fails)", rs.errors, rs.fails);
	vk_result_error(&rs, both, "not tested: later");
	CHECK(both->status == VK_FAIL && rs.errors == 1 && !strcmp(both->detail, "the vDSO said node 3"),
	      "an error after a failure changes nothing");
	vk_result_skip(skip, "no vsyscall page");
	vk_results_finish(&rs);
	CHECK(none->status == VK_ERROR && !strncmp(none->detail, "compared nothing", 16),
	      "a pass that compared nothing is vdsokit's error once finished: %s", none->detail);
	CHECK(ok->status == VK_PASS && skip->status == VK_SKIP,
	      "a pass that compared something stays one, a skip a skip");
	t = vk_results_tally(&rs);
	CHECK(t.pass == 1 && t.fail == 1 && t.skip == 1 && t.error == 2 && rs.errors == 2,
	      "tally: %zu passed, %zu failed, %zu skipped, %zu errors", t.pass, t.fail, t.skip,
	      t.error);
	g = vk_results_group(&rs, 0);
	CHECK(g.n == 2 && g.t.error == 1 && g.t.fail == 1 && !strcmp(g.first_error, "cpu") &&
	      !strcmp(g.first_fail, "node"), "a group names its first error and its first failure");
	vk_results_free(&rs);
	return test_exit();
}
