// SPDX-License-Identifier: MIT
/*
 * vm's A/B: the differences in kind between two kernels' guest reports,
 * and which make B worse than A (vm_ab.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/call/targets.h"
#include "core/vm/vm_ab.h"

static void add(struct vk_ab_diffs *ds, const char *kind, const char *what, const char *a,
		const char *b, enum vk_ab_verdict verdict)
{
	struct vk_ab_diff *d;

	ds->worse += verdict == VK_AB_REGRESSION;
	ds->better += verdict == VK_AB_IMPROVEMENT;
	ds->total++;
	if (ds->n == VK_AB_MAX_DIFFS)
		return;
	d = &ds->d[ds->n++];
	d->kind = kind;
	d->verdict = verdict;
	snprintf(d->what, sizeof(d->what), "%s", what);
	snprintf(d->a, sizeof(d->a), "%s", a);
	snprintf(d->b, sizeof(d->b), "%s", b);
}

const char *vk_ab_str(const struct vk_jval *v, const char *none)
{
	const char *s = vk_jstr(v);

	return s ? s : none;
}

const char *vk_ab_verdict_name(enum vk_ab_verdict v)
{
	return v == VK_AB_REGRESSION ? "regression" : v == VK_AB_IMPROVEMENT ? "improvement" : "";
}

static int is(const struct vk_jval *v, const char *s)
{
	return !strcmp(vk_ab_str(v, ""), s);
}

/* --- the clocksource: what each boot settled on --- */

static size_t nboots(const struct vk_ab_docs *d)
{
	return d->nbench ? d->nbench : 1;
}

/*
 * Boot k's clocksource as its last report saw it: bench's, which runs
 * after info in the first boot, or info's where bench gave none. A
 * clocksource the kernel replaces after boot (tsc-early) is not the
 * kernel's.
 */
static const char *boot_clocksource(const struct vk_ab_docs *d, size_t k)
{
	const char *cs = k < d->nbench ? vk_jstr(vk_jget(d->bench[k], "clocksource")) : NULL;

	if (!cs && k == 0)
		cs = vk_jstr(vk_jget(vk_jget(d->info, "clocksource"), "current"));
	return cs ? cs : "?";
}

/* Whether every boot of x had a clocksource that some boot of y had. */
static int covered(const struct vk_ab_docs *x, const struct vk_ab_docs *y)
{
	for (size_t i = 0; i < nboots(x); i++) {
		size_t j = 0;

		while (j < nboots(y) && strcmp(boot_clocksource(x, i), boot_clocksource(y, j)))
			j++;
		if (j == nboots(y))
			return 0;
	}
	return 1;
}

/* One name where every boot had it, with info's verdict on it; else each boot's. */
static void clocksource_state(const struct vk_ab_docs *d, char *buf, size_t len)
{
	const struct vk_jval *cs = vk_jget(d->info, "clocksource");
	const char *first = boot_clocksource(d, 0);
	size_t k = 1, off = 0;

	while (k < nboots(d) && !strcmp(boot_clocksource(d, k), first))
		k++;
	if (k == nboots(d)) {
		if (is(vk_jget(cs, "current"), first))
			snprintf(buf, len, "%s (vDSO-capable: %s)", first,
				 vk_ab_str(vk_jget(cs, "vdso_capable"), "?"));
		else
			snprintf(buf, len, "%s", first);
		return;
	}
	for (k = 0; k < nboots(d) && off < len; k++)
		off += snprintf(buf + off, len - off, "%sboot %zu %s", k ? ", " : "", k + 1,
				boot_clocksource(d, k));
}

static void diff_clocksource(struct vk_ab_diffs *ds, const struct vk_ab_docs *a,
			     const struct vk_ab_docs *b)
{
	char sa[160], sb[160];

	if (covered(a, b) && covered(b, a))
		return;
	clocksource_state(a, sa, sizeof(sa));
	clocksource_state(b, sb, sizeof(sb));
	add(ds, "clocksource", "current", sa, sb, VK_AB_CHANGE);
}

/* --- the functions each vDSO exports --- */

/* A function's symbol, or why it has none; 1 if it has one. */
static int function_state(const struct vk_jval *fn, char *buf, size_t len)
{
	const struct vk_jval *sym = vk_jget(fn, "symbol");

	if (!fn) {
		snprintf(buf, len, "not an entry of this ABI");
		return 0;
	}
	if (vk_jget(fn, "found")->type == VK_JTRUE) {
		snprintf(buf, len, "%s@%s", vk_ab_str(vk_jget(sym, "name"), "?"),
			 vk_ab_str(vk_jget(sym, "version"), "?"));
		return 1;
	}
	snprintf(buf, len, "absent (%s)", vk_ab_str(vk_jget(fn, "absent"), "?"));
	return 0;
}

static const struct vk_jval *find_by(const struct vk_jval *arr, const char *key,
				     const char *val)
{
	for (size_t i = 0; i < vk_jarray_len(arr); i++) {
		const struct vk_jval *e = vk_jarray_at(arr, i);

		if (is(vk_jget(e, key), val))
			return e;
	}
	return NULL;
}

static void diff_functions(struct vk_ab_diffs *ds, const struct vk_jval *a, const struct vk_jval *b)
{
	const struct vk_jval *fa = vk_jget(vk_jget(a, "vdso"), "functions");
	const struct vk_jval *fb = vk_jget(vk_jget(b, "vdso"), "functions");
	char sa[160], sb[160];

	for (int side = 0; side < 2; side++) {
		const struct vk_jval *mine = side ? fb : fa;

		for (size_t i = 0; i < vk_jarray_len(mine); i++) {
			const char *name = vk_ab_str(vk_jget(vk_jarray_at(mine, i), "function"), "?");
			int has_a, has_b;

			/* B's own functions once: those A lacks. */
			if (side && find_by(fa, "function", name))
				continue;
			has_a = function_state(find_by(fa, "function", name), sa, sizeof(sa));
			has_b = function_state(find_by(fb, "function", name), sb, sizeof(sb));
			if (strcmp(sa, sb))
				add(ds, "function", name, sa, sb,
				    has_a > has_b ? VK_AB_REGRESSION :
				    has_b > has_a ? VK_AB_IMPROVEMENT : VK_AB_CHANGE);
		}
	}
}

/* --- where each call runs: fallback's results on the vdso path --- */

enum where { WHERE_UNKNOWN, WHERE_ABSENT, WHERE_USERSPACE, WHERE_SYSCALL, WHERE_DIED };

/* "clock_gettime(CLOCK_TAI)", "clock_getres(15)", "getcpu()": an API as its call. */
static void call_name(const char *api, char *buf, size_t len)
{
	struct vk_clock c;
	int has_id, f = vk_api_func(api, &c, &has_id);
	const char *named;
	char clock[48];
	size_t i = 0;

	if (f < 0) {
		snprintf(buf, len, "%s", api);
		return;
	}
	if (vk_funcs[f].shape != VK_SHAPE_CLOCK_TS) {
		snprintf(buf, len, "%s()", vk_funcs[f].name);
		return;
	}
	named = has_id ? vk_clock_name(c.id) : NULL;
	if (named) {
		/* "process-cputime" is CLOCK_PROCESS_CPUTIME_ID. */
		for (; named[i] && i < sizeof(clock) - 1; i++)
			clock[i] = named[i] == '-' ? '_' : toupper((unsigned char)named[i]);
		clock[i] = '\0';
		snprintf(buf, len, "%s(CLOCK_%s%s)", vk_funcs[f].name, clock,
			 strstr(named, "cputime") ? "_ID" : "");
	} else if (has_id) {
		snprintf(buf, len, "%s(%d)", vk_funcs[f].name, c.id);
	} else {
		snprintf(buf, len, "%s(%s)", vk_funcs[f].name, c.name);
	}
}

/* Where a fallback result says its call ran, in words into buf; the
 * syscall named only where it is not the call's own (fn's). */
static enum where call_state(const struct vk_jval *r, const char *fn, char *buf, size_t len)
{
	const char *detail = vk_ab_str(vk_jget(r, "detail"), "");
	size_t n;

	if (!r) {
		snprintf(buf, len, "not probed");
		return WHERE_UNKNOWN;
	}
	if (is(vk_jget(r, "status"), "skip")) {
		snprintf(buf, len, "absent");
		return WHERE_ABSENT;
	}
	if (is(vk_jget(r, "status"), "fail")) {
		snprintf(buf, len, "the probe failed: %s", detail);
		return WHERE_DIED;
	}
	if (!strcmp(detail, "userspace")) {
		snprintf(buf, len, "userspace");
		return WHERE_USERSPACE;
	}
	if (!strncmp(detail, "falls back to ", 14)) {
		n = strcspn(detail + 14, ":");
		if (strlen(fn) == n && !strncmp(detail + 14, fn, n))
			snprintf(buf, len, "syscall");
		else
			snprintf(buf, len, "syscall %.*s", (int)n, detail + 14);
		return WHERE_SYSCALL;
	}
	snprintf(buf, len, "%s", detail);
	return WHERE_UNKNOWN;
}

static enum vk_ab_verdict call_verdict(enum where a, enum where b)
{
	if ((a == WHERE_USERSPACE && b == WHERE_SYSCALL) || (a != WHERE_DIED && b == WHERE_DIED))
		return VK_AB_REGRESSION;
	if ((a == WHERE_SYSCALL && b == WHERE_USERSPACE) || (a == WHERE_DIED && b != WHERE_DIED))
		return VK_AB_IMPROVEMENT;
	return VK_AB_CHANGE;
}

static const struct vk_jval *find_vdso_call(const struct vk_jval *arr, const char *api)
{
	for (size_t i = 0; i < vk_jarray_len(arr); i++) {
		const struct vk_jval *e = vk_jarray_at(arr, i);

		if (is(vk_jget(e, "api"), api) && is(vk_jget(e, "path"), "vdso"))
			return e;
	}
	return NULL;
}

/* Whether verify failed a check of api on the vdso path. */
static int vdso_fails(const struct vk_jval *verify, const char *api)
{
	const struct vk_jval *r = vk_jget(verify, "results");

	for (size_t i = 0; i < vk_jarray_len(r); i++) {
		const struct vk_jval *e = vk_jarray_at(r, i);

		if (is(vk_jget(e, "api"), api) && is(vk_jget(e, "path"), "vdso") &&
		    is(vk_jget(e, "status"), "fail"))
			return 1;
	}
	return 0;
}

/*
 * One line per call whose place differs. The vdso path's only: libc's
 * calls follow the vDSO's. A call one vDSO lacks is its function's line.
 * A call B serves in userspace but wrongly (verify fails it there) is no
 * improvement: its failure is verify's line.
 */
static void diff_calls(struct vk_ab_diffs *ds, const struct vk_ab_docs *a,
		       const struct vk_ab_docs *b)
{
	const struct vk_jval *ra = vk_jget(a->fallback, "results");
	const struct vk_jval *rb = vk_jget(b->fallback, "results");
	char name[96], fn[96], sa[160], sb[160];

	for (int side = 0; side < 2; side++) {
		const struct vk_jval *mine = side ? rb : ra;

		for (size_t i = 0; i < vk_jarray_len(mine); i++) {
			const struct vk_jval *r = vk_jarray_at(mine, i), *x, *y;
			const char *api = vk_ab_str(vk_jget(r, "api"), "?");
			enum vk_ab_verdict v;
			enum where wa, wb;

			if (!is(vk_jget(r, "path"), "vdso"))
				continue;
			x = find_vdso_call(ra, api);
			y = find_vdso_call(rb, api);
			if (side && x)
				continue;
			call_name(api, name, sizeof(name));
			snprintf(fn, sizeof(fn), "%.*s", (int)strcspn(name, "("), name);
			wa = call_state(x, fn, sa, sizeof(sa));
			wb = call_state(y, fn, sb, sizeof(sb));
			if (wa == WHERE_ABSENT || wb == WHERE_ABSENT || !strcmp(sa, sb))
				continue;
			v = call_verdict(wa, wb);
			if (v == VK_AB_IMPROVEMENT && vdso_fails(b->verify, api))
				v = VK_AB_CHANGE;
			add(ds, "call", name, sa, sb, v);
		}
	}
}

/* --- verify's results --- */

static void result_key(const struct vk_jval *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s %s", vk_ab_str(vk_jget(r, "api"), "?"),
		 vk_ab_str(vk_jget(r, "path"), "?"), vk_ab_str(vk_jget(r, "check"), "?"));
}

static void result_state(const struct vk_jval *r, char *buf, size_t len)
{
	if (!r)
		snprintf(buf, len, "not run");
	else if (is(vk_jget(r, "status"), "pass"))
		snprintf(buf, len, "pass");
	else
		snprintf(buf, len, "%s: %s", vk_ab_str(vk_jget(r, "status"), "?"),
			 vk_ab_str(vk_jget(r, "detail"), vk_ab_str(vk_jget(r, "reason"), "")));
}

static const struct vk_jval *find_result(const struct vk_jval *arr, const char *key)
{
	char k[160];

	for (size_t i = 0; i < vk_jarray_len(arr); i++) {
		result_key(vk_jarray_at(arr, i), k, sizeof(k));
		if (!strcmp(k, key))
			return vk_jarray_at(arr, i);
	}
	return NULL;
}

/* Whether r's twin on another path (its api and check) failed in arr. */
static int twin_fails(const struct vk_jval *arr, const struct vk_jval *r, const char *path)
{
	char key[160];

	snprintf(key, sizeof(key), "%s %s %s", vk_ab_str(vk_jget(r, "api"), "?"), path,
		 vk_ab_str(vk_jget(r, "check"), "?"));
	return is(vk_jget(find_result(arr, key), "status"), "fail");
}

/*
 * A result B fails and A did not (or did not run) is a regression; one
 * B passes or skips and A failed, an improvement. Nothing else differs
 * in kind: how tight a bracket came, why a check was a SKIP, are the
 * boots' (an emulator's timing), and a function one kernel lacks is its
 * function's line. libc calls the vDSO: a libc result that changed as the
 * vDSO's twin did is that twin's line, "(libc too)".
 */
static void diff_verify(struct vk_ab_diffs *ds, const struct vk_jval *a, const struct vk_jval *b)
{
	const struct vk_jval *ra = vk_jget(a, "results"), *rb = vk_jget(b, "results");
	char key[160], sa[160], sb[160];

	for (int side = 0; side < 2; side++) {
		const struct vk_jval *mine = side ? rb : ra;

		for (size_t i = 0; i < vk_jarray_len(mine); i++) {
			const struct vk_jval *x, *y, *r;
			int fa, fb;

			result_key(vk_jarray_at(mine, i), key, sizeof(key));
			x = find_result(ra, key);
			y = find_result(rb, key);
			fa = is(vk_jget(x, "status"), "fail");
			fb = is(vk_jget(y, "status"), "fail");
			if ((side && x) || fa == fb)
				continue;
			r = x ? x : y;
			if (is(vk_jget(r, "path"), "libc") && twin_fails(ra, r, "vdso") == fa &&
			    twin_fails(rb, r, "vdso") == fb)
				continue;
			if (is(vk_jget(r, "path"), "vdso") && twin_fails(ra, r, "libc") == fa &&
			    twin_fails(rb, r, "libc") == fb)
				snprintf(key + strlen(key), sizeof(key) - strlen(key), " (libc too)");
			result_state(x, sa, sizeof(sa));
			result_state(y, sb, sizeof(sb));
			add(ds, "verify", key, sa, sb,
			    fb ? VK_AB_REGRESSION : y ? VK_AB_IMPROVEMENT : VK_AB_CHANGE);
		}
	}
}

void vk_ab_diff(struct vk_ab_diffs *ds, const struct vk_ab_docs *a, const struct vk_ab_docs *b)
{
	ds->n = ds->total = 0;
	ds->worse = ds->better = 0;
	diff_clocksource(ds, a, b);
	diff_functions(ds, a->info, b->info);
	diff_calls(ds, a, b);
	diff_verify(ds, a->verify, b->verify);
}
