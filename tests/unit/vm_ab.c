// SPDX-License-Identifier: MIT
/*
 * vm's A/B diff on two planted sets of reports, as info, fallback,
 * verify and bench print them in each kernel's guests. B sends
 * clock_gettime(CLOCK_TAI) and clock_getres(CLOCK_TAI) to the syscall
 * where A served them in userspace, lost getcpu, serves
 * clock_gettime(CLOCK_BOOTTIME) in userspace where A made the syscall and
 * gained getrandom, and serves clock_getres(16) in userspace, wrongly
 * (verify fails it): no improvement. time stayed as it was. Two verify
 * results B fails and A passed, one A failed and B passes; the rest
 * differ only as boots do (a SKIP's measured detail, a check a lost
 * function no longer ran), or as libc's result follows the vDSO's. A's first boot ran info on tsc-early, which
 * the kernel then replaced by tsc, B's clocksource: no difference. No
 * guest is booted.
 */
#include <string.h>

#include "core/base/array.h"
#include "core/vm/vm_ab.h"
#include "tests/unit/test.h"

#define FN(name)                                                                \
	"{\"function\":\"" name "\",\"found\":true,\"symbol\":{\"name\":\"__vdso_" name  \
	"\",\"version\":\"LINUX_2.6\"},\"runs\":\"userspace\"}"
#define ABSENT(name) "{\"function\":\"" name "\",\"found\":false,\"absent\":\"not exported\"}"
#define INFO(cs, capable, fns)                                                  \
	"{\"kernel\":{\"release\":\"r\"},\"clocksource\":{\"current\":\"" cs "\","    \
	"\"vdso_capable\":\"" capable "\"},\"vdso\":{\"functions\":[" fns "]}}"
#define RES(api, path, check, status, detail)                                   \
	"{\"api\":\"" api "\",\"path\":\"" path "\",\"check\":\"" check "\",\"status\":\"" \
	status "\",\"detail\":\"" detail "\"}"
#define FB(api, detail) RES(api, "vdso", "fallback", "pass", detail)
#define SYS(name) "falls back to " name ": unexpected: the vDSO serves this call"
#define BENCH(cs) "{\"clocksource\":\"" cs "\",\"results\":[]}"

enum { INFO, FALLBACK, VERIFY, BENCH1, BENCH2, NDOCS };

static const char *const a_docs[NDOCS] = {
	INFO("tsc-early", "unknown",
	     FN("clock_gettime") "," FN("clock_getres") "," FN("getcpu") "," FN("time") ","
	     ABSENT("getrandom")),
	"{\"results\":[" FB("clock-gettime-tai", "userspace") "," FB("clock-getres-tai", "userspace")
	"," FB("clock-gettime-boottime", SYS("clock_gettime")) ","
	FB("clock-getres-id:16", SYS("clock_getres")) ","
	FB("clock-gettime-monotonic", "userspace") "," FB("getcpu", "userspace") ","
	FB("time", "userspace") "," RES("getrandom", "vdso", "fallback", "skip", "") ","
	RES("clock-gettime-tai", "libc", "fallback", "pass", "userspace") "]}",
	"{\"results\":[" RES("clock-gettime-monotonic", "vdso", "errno", "pass", "") ","
	RES("clock-gettime-monotonic", "libc", "errno", "pass", "") ","
	RES("clock-gettime-realtime", "vdso", "ordered", "fail", "went back") ","
	RES("getcpu", "vdso", "ordered", "pass", "") ","
	RES("clock-gettime-boottime", "vdso", "threads", "skip", "the tightest hand-off was 502.3 us") ","
	RES("time", "vdso", "monotonic", "fail", "went back 3 s") ","
	RES("clock-getres-id:16", "vdso", "errno", "pass", "") "]}",
	BENCH("tsc"),
	BENCH("tsc"),
};

static const char *const b_docs[NDOCS] = {
	INFO("tsc", "yes",
	     FN("clock_gettime") "," FN("clock_getres") "," ABSENT("getcpu") "," FN("time") ","
	     FN("getrandom")),
	"{\"results\":[" FB("clock-gettime-tai", SYS("clock_gettime")) ","
	FB("clock-getres-tai", SYS("clock_getres")) "," FB("clock-gettime-boottime", "userspace") ","
	FB("clock-getres-id:16", "userspace") ","
	FB("clock-gettime-monotonic", "userspace") "," RES("getcpu", "vdso", "fallback", "skip", "") ","
	FB("time", "userspace") "," FB("getrandom", "userspace") ","
	RES("clock-gettime-tai", "libc", "fallback", "pass", SYS("clock_gettime")) "]}",
	"{\"results\":[" RES("clock-gettime-monotonic", "vdso", "errno", "fail", "EINVAL") ","
	RES("clock-gettime-monotonic", "libc", "errno", "fail", "libc's EINVAL") ","
	RES("clock-gettime-realtime", "vdso", "ordered", "pass", "") ","
	RES("clock-gettime-boottime", "vdso", "threads", "skip", "the tightest hand-off was 8998.2 us") ","
	RES("time", "vdso", "monotonic", "fail", "went back 5 s") ","
	RES("getrandom", "vdso", "length", "pass", "") ","
	RES("clock-getres-id:16", "vdso", "errno", "fail", "vdso returned 0") "]}",
	BENCH("tsc"),
	BENCH("tsc"),
};

static const struct {
	const char *kind, *what, *a, *b;
	enum vk_ab_verdict verdict;
} want[] = {
	{ "function", "getcpu", "__vdso_getcpu@LINUX_2.6", "absent (not exported)", VK_AB_REGRESSION },
	{ "function", "getrandom", "absent (not exported)", "__vdso_getrandom@LINUX_2.6",
	  VK_AB_IMPROVEMENT },
	{ "call", "clock_gettime(CLOCK_TAI)", "userspace", "syscall", VK_AB_REGRESSION },
	{ "call", "clock_getres(CLOCK_TAI)", "userspace", "syscall", VK_AB_REGRESSION },
	{ "call", "clock_gettime(CLOCK_BOOTTIME)", "syscall", "userspace", VK_AB_IMPROVEMENT },
	{ "call", "clock_getres(16)", "syscall", "userspace", VK_AB_CHANGE },
	{ "verify", "clock-gettime-monotonic vdso errno (libc too)", "pass", "fail: EINVAL",
	  VK_AB_REGRESSION },
	{ "verify", "clock-gettime-realtime vdso ordered", "fail: went back", "pass",
	  VK_AB_IMPROVEMENT },
	{ "verify", "clock-getres-id:16 vdso errno", "pass", "fail: vdso returned 0",
	  VK_AB_REGRESSION },
};

#define NWANT ARRAY_SIZE(want)

static void parse(const char *const text[NDOCS], struct vk_jval *doc[NDOCS])
{
	for (int i = 0; i < NDOCS; i++) {
		struct vk_jerr err;

		doc[i] = vk_jparse(text[i], strlen(text[i]), &err);
		if (!doc[i])
			printf("# planted report %d: %s\n", i, err.msg);
	}
}

static struct vk_ab_docs docs(struct vk_jval *const doc[NDOCS], size_t nbench)
{
	return (struct vk_ab_docs){ doc[INFO], doc[FALLBACK], doc[VERIFY],
				    (const struct vk_jval *const *)&doc[BENCH1], nbench };
}

static void planted(struct vk_jval *const a[NDOCS], struct vk_jval *const b[NDOCS])
{
	static struct vk_ab_diffs ds;
	struct vk_ab_docs da = docs(a, 2), db = docs(b, 2);

	vk_ab_diff(&ds, &da, &db);
	CHECK(ds.n == NWANT && ds.total == NWANT, "%zu differences in kind, %zu planted", ds.n, NWANT);
	for (size_t i = 0; i < NWANT && i < ds.n; i++) {
		const struct vk_ab_diff *d = &ds.d[i];

		CHECK(!strcmp(d->kind, want[i].kind) && !strcmp(d->what, want[i].what) &&
		      !strcmp(d->a, want[i].a) && !strcmp(d->b, want[i].b) &&
		      d->verdict == want[i].verdict,
		      "difference %zu: %s %s: A %s, B %s: '%s'", i + 1, d->kind, d->what, d->a, d->b,
		      vk_ab_verdict_name(d->verdict));
	}
	CHECK(ds.worse == 5, "B's regressions in kind fail the A/B: a function lost, two calls "
	      "sent to the syscall, two checks B fails (%d)", ds.worse);
	CHECK(ds.better == 3, "B's improvements: a function gained, a call served in userspace, "
	      "a check B passes (%d)", ds.better);
}

/* A's boots differ from each other, not from B's: no difference; B on hpet: one. */
static void clocksource(struct vk_jval *const a[NDOCS], struct vk_jval *const b[NDOCS])
{
	static struct vk_ab_diffs ds;
	struct vk_ab_docs da = docs(a, 2), db = docs(b, 2), none = docs(a, 0);
	struct vk_jerr err;
	struct vk_jval *hpet = vk_jparse(BENCH("hpet"), strlen(BENCH("hpet")), &err);
	struct vk_jval *mixed[NDOCS] = { b[INFO], b[FALLBACK], b[VERIFY], b[BENCH1], hpet };

	vk_ab_diff(&ds, &da, &db);
	CHECK(ds.n && strcmp(ds.d[0].kind, "clocksource"),
	      "tsc-early at A's first info, tsc in every boot's bench: no clocksource difference");
	vk_ab_diff(&ds, &none, &db);
	CHECK(ds.n && !strcmp(ds.d[0].kind, "clocksource") &&
	      !strcmp(ds.d[0].a, "tsc-early (vDSO-capable: unknown)") &&
	      !strcmp(ds.d[0].b, "tsc (vDSO-capable: yes)") && ds.d[0].verdict == VK_AB_CHANGE,
	      "without bench, info's: A %s, B %s", ds.n ? ds.d[0].a : "-", ds.n ? ds.d[0].b : "-");
	db = docs(mixed, 2);
	vk_ab_diff(&ds, &da, &db);
	CHECK(ds.n && !strcmp(ds.d[0].kind, "clocksource") && !strcmp(ds.d[0].a, "tsc") &&
	      !strcmp(ds.d[0].b, "boot 1 tsc, boot 2 hpet"),
	      "a B boot on hpet is a difference, said per boot: A %s, B %s", ds.n ? ds.d[0].a : "-",
	      ds.n ? ds.d[0].b : "-");
	vk_jfree(hpet);
}

int main(void)
{
	struct vk_jval *a[NDOCS], *b[NDOCS];
	static struct vk_ab_diffs ds;
	struct vk_ab_docs da, db;

	parse(a_docs, a);
	parse(b_docs, b);
	for (int i = 0; i < NDOCS; i++)
		CHECK(a[i] && b[i], "the planted reports %d parse", i);
	planted(a, b);
	clocksource(a, b);
	da = docs(a, 2);
	db = docs(a, 2);
	vk_ab_diff(&ds, &da, &db);
	CHECK(ds.n == 0 && ds.worse == 0 && ds.better == 0, "a kernel against itself: no difference");
	for (int i = 0; i < NDOCS; i++) {
		vk_jfree(a[i]);
		vk_jfree(b[i]);
	}
	return test_exit();
}
