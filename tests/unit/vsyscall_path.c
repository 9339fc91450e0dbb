// SPDX-License-Identifier: MIT
/*
 * The vsyscall path (core/call/vsyscall.h): verify's rules judge what it
 * returns against the syscall as on any path. Planted entries in its
 * slots, a gettimeofday a second ahead, a time 5 s behind and a getcpu on
 * a CPU there is none of, each fail a rule of the path named vsyscall;
 * the page's own entries, where this process has the page, pass. Where
 * it has none, the path is missing with the reason, vsyscall=none or the
 * ABI's.
 */
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/call/vsyscall.h"
#include "core/verify/verify.h"
#include "tests/unit/test.h"

static int ahead(void *tv, void *tz)
{
	struct vk_ktv *t = tv;
	long r = syscall(SYS_gettimeofday, tv, tz);

	if (t)
		t->sec += 1;
	return r;
}

static vk_klong behind(vk_klong *t)
{
	struct vk_ktv tv;

	syscall(SYS_gettimeofday, &tv, NULL);
	if (t)
		*t = tv.sec - 5;
	return tv.sec - 5;
}

static int nowhere(unsigned *cpu, unsigned *node, void *cache)
{
	(void)cache;
	if (cpu)
		*cpu = 4095;
	if (node)
		*node = 0;
	return 0;
}

/* verify's results for fn on the vsyscall path: how many failed, and the first one's rule. */
static size_t run(struct vk_callset *cs, const char *api, char *rule, size_t len)
{
	struct vk_results rs = { 0 };
	struct vk_verify v = { .cs = cs, .rs = &rs, .seconds = 0.05,
			       .paths = VK_PATH_BIT(VK_PATH_VSYSCALL) };
	struct vk_target t[VK_NFUNCS];
	size_t fails = 0;
	int nt = 0;

	rule[0] = 0;
	vk_targets_add(t, &nt, api);
	vk_verify_run(&v, &t[0]);
	for (size_t i = 0; i < rs.n; i++) {
		if (rs.r[i]->path != VK_PATH_VSYSCALL)
			continue;
		if (rs.r[i]->status == VK_FAIL && !fails++)
			snprintf(rule, len, "%s: %.120s", rs.r[i]->check, rs.r[i]->detail);
	}
	vk_results_free(&rs);
	return fails;
}

static void planted(struct vk_callset *cs, enum vk_func f, void *fn, const char *api)
{
	struct vk_callset mine = *cs;
	char rule[200];
	size_t fails;

	mine.fn[VK_PATH_VSYSCALL][f].p = fn;
	mine.why[VK_PATH_VSYSCALL][f] = NULL;
	fails = run(&mine, api, rule, sizeof(rule));
	CHECK(fails > 0, "a planted %s on the vsyscall path fails verify (%zu failed; %s)", api,
	      fails, rule);
}

int main(void)
{
	static struct vk_callset cs;
	unsigned mask;
	char err[64], rule[200];
	const char *why;

	CHECK(vk_paths_parse("vdso,vsyscall", &mask) == 0 &&
	      mask == (VK_PATH_BIT(VK_PATH_VDSO) | VK_PATH_BIT(VK_PATH_VSYSCALL)),
	      "--paths takes vsyscall (%#x)", mask);
	CHECK(vk_callset_init(&cs, NULL, NULL, err, sizeof(err)) == 0, "a call set");
	why = cs.why[VK_PATH_VSYSCALL][VK_FN_CLOCK_GETTIME];
	CHECK(!cs.fn[VK_PATH_VSYSCALL][VK_FN_CLOCK_GETTIME].p && why,
	      "the vsyscall path has no clock_gettime: %s", why ? why : "(no reason)");

	planted(&cs, VK_FN_GETTIMEOFDAY, ahead, "gettimeofday");
	planted(&cs, VK_FN_TIME, behind, "time");
	planted(&cs, VK_FN_GETCPU, nowhere, "getcpu");

	why = cs.why[VK_PATH_VSYSCALL][VK_FN_GETTIMEOFDAY];
	if (why) {
		CHECK(strstr(why, "vsyscall=none") || strstr(why, "no vsyscall page") ||
		      strstr(why, "/proc/self/maps"), "no page here, and why: %s", why);
		SKIP(why, "the page's own entries pass verify");
		return test_exit();
	}
	CHECK(cs.fn[VK_PATH_VSYSCALL][VK_FN_GETTIMEOFDAY].p == vk_vsyscall_entry(VK_FN_GETTIMEOFDAY),
	      "gettimeofday at the page's start");
	for (int i = 0; i < 3; i++) {
		const char *api = (const char *[]){ "gettimeofday", "time", "getcpu" }[i];
		size_t fails = run(&cs, api, rule, sizeof(rule));

		CHECK(fails == 0, "the page's %s passes verify (%s)", api, rule);
	}
	return test_exit();
}
