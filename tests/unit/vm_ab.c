// SPDX-License-Identifier: MIT
/*
 * vm's A/B diff on two planted sets of reports, as info, fallback and
 * verify print them in each kernel's guest: clock_gettime moved from
 * userspace to the syscall, getcpu vanished, time stayed as it was; one
 * verify result B fails and A passed, one B no longer ran, one both
 * fail alike. No guest is booted.
 */
#include <string.h>

#include "core/vm/vm_ab.h"
#include "tests/unit/test.h"

#define FN(name, runs)                                                          \
	"{\"function\":\"" name "\",\"found\":true,\"symbol\":{\"name\":\"__vdso_" name  \
	"\",\"version\":\"LINUX_2.6\"},\"runs\":\"" runs "\"}"
#define INFO(fns)                                                               \
	"{\"kernel\":{\"release\":\"r\"},\"clocksource\":{\"current\":\"tsc\","  \
	"\"vdso_capable\":\"yes\"},\"vdso\":{\"functions\":[" fns "]}}"
#define RES(api, check, status, detail)                                         \
	"{\"api\":\"" api "\",\"path\":\"vdso\",\"check\":\"" check "\",\"status\":\"" \
	status "\",\"detail\":\"" detail "\"}"

static const char *const a_docs[3] = {
	INFO(FN("clock_gettime", "userspace") "," FN("getcpu", "userspace") ","
	     FN("time", "userspace")),
	"{\"results\":[" RES("clock-gettime-monotonic", "fallback", "pass", "userspace") ","
	RES("time", "fallback", "pass", "userspace") "]}",
	"{\"results\":[" RES("clock-gettime-monotonic", "errno", "pass", "") ","
	RES("getcpu", "ordered", "pass", "") "," RES("time", "ordered", "pass", "") ","
	RES("time", "monotonic", "fail", "went back") "]}",
};

static const char *const b_docs[3] = {
	INFO(FN("clock_gettime", "syscall") ","
	     "{\"function\":\"getcpu\",\"found\":false,\"absent\":\"not exported\"},"
	     FN("time", "userspace")),
	"{\"results\":[" RES("clock-gettime-monotonic", "fallback", "pass", "syscall") ","
	RES("time", "fallback", "pass", "userspace") "]}",
	"{\"results\":[" RES("clock-gettime-monotonic", "errno", "fail", "EINVAL") ","
	RES("time", "ordered", "pass", "") "," RES("time", "monotonic", "fail", "went back") "]}",
};

static const struct {
	const char *kind, *what, *a, *b;
} want[] = {
	{ "function", "clock_gettime", "__vdso_clock_gettime@LINUX_2.6, userspace",
	  "__vdso_clock_gettime@LINUX_2.6, syscall" },
	{ "function", "getcpu", "__vdso_getcpu@LINUX_2.6, userspace", "absent: not exported" },
	{ "fallback", "clock-gettime-monotonic vdso fallback", "pass: userspace", "pass: syscall" },
	{ "verify", "clock-gettime-monotonic vdso errno", "pass", "fail: EINVAL" },
	{ "verify", "getcpu vdso ordered", "pass", "not run" },
};

#define NWANT (sizeof(want) / sizeof(want[0]))

static void parse(const char *const text[3], struct vk_jval *doc[3])
{
	for (int i = 0; i < 3; i++) {
		struct vk_jerr err;

		doc[i] = vk_jparse(text[i], strlen(text[i]), &err);
		if (!doc[i])
			printf("# planted report %d: %s\n", i, err.msg);
	}
}

static int has(const struct vk_ab_diffs *ds, const char *what)
{
	for (size_t i = 0; i < ds->n; i++) {
		if (!strcmp(ds->d[i].what, what))
			return 1;
	}
	return 0;
}

int main(void)
{
	struct vk_jval *a[3], *b[3];
	static struct vk_ab_diffs ds;

	parse(a_docs, a);
	parse(b_docs, b);
	CHECK(a[0] && a[1] && a[2] && b[0] && b[1] && b[2], "the planted reports parse");
	vk_ab_diff(&ds, &(struct vk_ab_docs){ a[0], a[1], a[2] },
		   &(struct vk_ab_docs){ b[0], b[1], b[2] });
	CHECK(ds.n == NWANT, "%zu differences in kind, %zu planted", ds.n, NWANT);
	for (size_t i = 0; i < NWANT && i < ds.n; i++) {
		const struct vk_ab_diff *d = &ds.d[i];

		CHECK(!strcmp(d->kind, want[i].kind) && !strcmp(d->what, want[i].what) &&
		      !strcmp(d->a, want[i].a) && !strcmp(d->b, want[i].b),
		      "difference %zu: %s %s: A '%s', B '%s'", i + 1, d->kind, d->what, d->a, d->b);
	}
	CHECK(!has(&ds, "time") && !has(&ds, "time vdso fallback") && !has(&ds, "time vdso ordered") &&
	      !has(&ds, "time vdso monotonic"),
	      "time, unchanged, is no difference");
	CHECK(ds.worse == 1, "one result B fails and A passed; one both fail is not worse (%d)",
	      ds.worse);

	vk_ab_diff(&ds, &(struct vk_ab_docs){ a[0], a[1], a[2] },
		   &(struct vk_ab_docs){ a[0], a[1], a[2] });
	CHECK(ds.n == 0 && ds.worse == 0, "a kernel against itself: no difference");
	for (int i = 0; i < 3; i++) {
		vk_jfree(a[i]);
		vk_jfree(b[i]);
	}
	return test_exit();
}
