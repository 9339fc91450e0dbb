// SPDX-License-Identifier: MIT
/*
 * core/result/findings.c: failures of one cause make one finding, whichever
 * command saw them, and failures of another cause make another. The
 * results are made by hand as verify and abi make them on a kernel whose
 * vDSO serves clock_getres for the aux clocks 16-23 that the syscall
 * refuses, and whose clock_gettime steps back.
 */
#include <errno.h>
#include <string.h>

#include "core/result/findings.h"
#include "tests/unit/test.h"

/* returns: 0 a rule broken, 1 return values, 2 those of a plain call. */
static void fail(struct vk_results *rs, const char *api, enum vk_path p, const char *check,
		 int returns)
{
	struct vk_result *r = vk_results_add(rs, api, p, check);

	vk_result_fail(rs, r, "%s failed", api);
	if (returns)
		vk_result_returns(r, 0, -EINVAL);
	if (returns == 2)
		vk_result_plain(r, 0, 0, -EINVAL);
}

/* A failure whose plain call did not fail again afresh (core/confirm):
 * still a failure, counted as unconfirmed, but no finding. */
static void unconfirmed(void)
{
	struct vk_results rs = { 0 };
	static struct vk_findings fs;
	struct vk_tally t;

	fail(&rs, "clock-gettime-id:12", VK_PATH_IMPL, "errno", 2);
	fail(&rs, "clock-gettime-id:13", VK_PATH_IMPL, "errno", 2);
	vk_result_unconfirm(&rs, rs.r[0], "a vdsokit exec()ed afresh got %s", "-22 (EINVAL)");
	vk_result_unconfirm(&rs, rs.r[0], "twice");
	vk_findings_add(&fs, "verify", &rs);
	t = vk_results_tally(&rs);
	CHECK(rs.fails == 2 && t.fail == 2, "an unconfirmed failure is still a failure");
	CHECK(rs.unconfirmed == 1 && t.unconfirmed == 1, "counted once as unconfirmed (%llu, %zu)",
	      rs.unconfirmed, t.unconfirmed);
	CHECK(!strcmp(rs.r[0]->detail,
		      "clock-gettime-id:12 failed; unconfirmed: a vdsokit exec()ed afresh got -22 (EINVAL)"),
	      "its detail says so: %s", rs.r[0]->detail);
	CHECK(fs.n == 1 && fs.f[0].checks == 1 && !strcmp(fs.f[0].example->api, "clock-gettime-id:13"),
	      "only the confirmed failure makes a finding (%zu findings)", fs.n);
	vk_results_free(&rs);
}

int main(void)
{
	struct vk_results verify = { 0 }, abi = { 0 };
	static struct vk_findings fs;
	char api[40], buf[160];

	for (int p = VK_PATH_VDSO; p <= VK_PATH_LIBC; p++) {
		for (int id = 16; id <= 23; id++) {
			snprintf(api, sizeof(api), "clock-getres-id:%d", id);
			vk_results_add(&verify, "clock-getres-id:15", p, "errno");
			fail(&verify, api, p, "errno", 1);
			fail(&abi, api, p, "ts:valid", 2);
		}
	}
	fail(&verify, "clock-gettime-monotonic", VK_PATH_VDSO, "monotonic", 0);
	fail(&verify, "clock-gettime-cpu:self", VK_PATH_VDSO, "monotonic", 0);
	vk_findings_add(&fs, "verify", &verify);
	vk_findings_add(&fs, "abi", &abi);

	CHECK(fs.n == 2, "two causes make two findings (%zu)", fs.n);
	CHECK(fs.f[0].checks == 32, "the aux-clock finding counts its 32 failed checks (%zu)",
	      fs.f[0].checks);
	CHECK(fs.f[0].nby == 2 && fs.f[0].by[0].checks == 16 && fs.f[0].by[1].checks == 16,
	      "it counts 16 by verify and 16 by abi");
	CHECK(!strcmp(fs.f[0].what, "clock_getres succeeds where the syscall fails with EINVAL"),
	      "it says what differs: %s", fs.f[0].what);
	vk_finding_clocks(buf, sizeof(buf), &fs.f[0]);
	CHECK(!strcmp(buf, "16-23"), "its clocks are 16-23 (%s)", buf);
	CHECK(fs.f[0].paths == (VK_PATH_BIT(VK_PATH_VDSO) | VK_PATH_BIT(VK_PATH_LIBC)),
	      "it covers the vdso and libc paths");
	vk_finding_reproduce(buf, sizeof(buf), &fs.f[0]);
	CHECK(!strcmp(buf, "vdsokit verify --paths vdso clock-getres-id:16"),
	      "its example is reproduced by verify (%s)", buf);
	CHECK(fs.f[0].plain && !strcmp(fs.f[0].plain->check, "ts:valid") &&
	      !strcmp(fs.f[0].plain->api, "clock-getres-id:16"),
	      "its plain call, for a reproducer, is abi's first, not verify's example");
	CHECK(!fs.f[1].plain, "a rule broken has no plain call");
	CHECK(!strcmp(fs.f[1].what, "clock_gettime breaks verify's monotonic rule"),
	      "another rule is another finding: %s", fs.f[1].what);
	vk_finding_clocks(buf, sizeof(buf), &fs.f[1]);
	CHECK(!strcmp(buf, "monotonic, cpu:self"), "its clocks are named (%s)", buf);
	unconfirmed();
	vk_results_free(&verify);
	vk_results_free(&abi);
	return test_exit();
}
