// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <string.h>

#include "core/vm/vm_ab.h"

static void add(struct vk_ab_diffs *ds, const char *kind, const char *what, const char *a,
		const char *b)
{
	struct vk_ab_diff *d;

	if (ds->n == VK_AB_MAX_DIFFS)
		return;
	d = &ds->d[ds->n++];
	d->kind = kind;
	snprintf(d->what, sizeof(d->what), "%s", what);
	snprintf(d->a, sizeof(d->a), "%s", a);
	snprintf(d->b, sizeof(d->b), "%s", b);
}

const char *vk_ab_str(const struct vk_jval *v, const char *none)
{
	const char *s = vk_jstr(v);

	return s ? s : none;
}

/* How a function stands in a vDSO: its symbol and where it runs, or why it is absent. */
static void function_state(const struct vk_jval *fn, char *buf, size_t len)
{
	const struct vk_jval *sym = vk_jget(fn, "symbol");

	if (!fn)
		snprintf(buf, len, "not an entry of this ABI");
	else if (vk_jget(fn, "found")->type == VK_JTRUE)
		snprintf(buf, len, "%s@%s, %s", vk_ab_str(vk_jget(sym, "name"), "?"),
			 vk_ab_str(vk_jget(sym, "version"), "?"), vk_ab_str(vk_jget(fn, "runs"), "?"));
	else
		snprintf(buf, len, "absent: %s", vk_ab_str(vk_jget(fn, "absent"), "?"));
}

static const struct vk_jval *find_by(const struct vk_jval *arr, const char *key,
				     const char *val)
{
	for (size_t i = 0; i < vk_jarray_len(arr); i++) {
		const struct vk_jval *e = vk_jarray_at(arr, i);

		if (!strcmp(vk_ab_str(vk_jget(e, key), ""), val))
			return e;
	}
	return NULL;
}

static void diff_functions(struct vk_ab_diffs *ds, const struct vk_jval *a, const struct vk_jval *b)
{
	const struct vk_jval *fa = vk_jget(vk_jget(a, "vdso"), "functions");
	const struct vk_jval *fb = vk_jget(vk_jget(b, "vdso"), "functions");
	char sa[128], sb[128];

	for (int side = 0; side < 2; side++) {
		const struct vk_jval *mine = side ? fb : fa, *other = side ? fa : fb;

		for (size_t i = 0; i < vk_jarray_len(mine); i++) {
			const char *name = vk_ab_str(vk_jget(vk_jarray_at(mine, i), "function"), "?");
			const struct vk_jval *x = find_by(fa, "function", name);
			const struct vk_jval *y = find_by(fb, "function", name);

			/* B's own functions once: those A lacks. */
			if (side && find_by(other, "function", name))
				continue;
			function_state(x, sa, sizeof(sa));
			function_state(y, sb, sizeof(sb));
			if (strcmp(sa, sb))
				add(ds, "function", name, sa, sb);
		}
	}
}

static void diff_clocksource(struct vk_ab_diffs *ds, const struct vk_jval *a, const struct vk_jval *b)
{
	char sa[128], sb[128];

	for (int k = 0; k < 2; k++) {
		const struct vk_jval *cs = vk_jget(k ? b : a, "clocksource");

		snprintf(k ? sb : sa, 128, "%s (vDSO-capable: %s)", vk_ab_str(vk_jget(cs, "current"), "?"),
			 vk_ab_str(vk_jget(cs, "vdso_capable"), "?"));
	}
	if (strcmp(sa, sb))
		add(ds, "clocksource", "current", sa, sb);
}

/* A result's key and state, as the reports of fallback and verify give them. */
static void result_key(const struct vk_jval *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s %s", vk_ab_str(vk_jget(r, "api"), "?"),
		 vk_ab_str(vk_jget(r, "path"), "?"), vk_ab_str(vk_jget(r, "check"), "?"));
}

static void result_state(const struct vk_jval *r, int with_detail, char *buf, size_t len)
{
	if (!r)
		snprintf(buf, len, "not run");
	else if (with_detail || strcmp(vk_ab_str(vk_jget(r, "status"), ""), "pass"))
		snprintf(buf, len, "%s: %s", vk_ab_str(vk_jget(r, "status"), "?"),
			 vk_ab_str(vk_jget(r, "detail"), vk_ab_str(vk_jget(r, "reason"), "")));
	else
		snprintf(buf, len, "pass");
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

/* Results whose state differs; ds->worse counts those B fails and A does not. */
static void diff_results(struct vk_ab_diffs *ds, const char *kind, int with_detail,
			 const struct vk_jval *a, const struct vk_jval *b)
{
	const struct vk_jval *ra = vk_jget(a, "results"), *rb = vk_jget(b, "results");
	char key[160], sa[128], sb[128];

	for (int side = 0; side < 2; side++) {
		const struct vk_jval *mine = side ? rb : ra;

		for (size_t i = 0; i < vk_jarray_len(mine); i++) {
			const struct vk_jval *x, *y;

			result_key(vk_jarray_at(mine, i), key, sizeof(key));
			x = find_result(ra, key);
			y = find_result(rb, key);
			if (side && x)
				continue;
			result_state(x, with_detail, sa, sizeof(sa));
			result_state(y, with_detail, sb, sizeof(sb));
			if (strcmp(sa, sb))
				add(ds, kind, key, sa, sb);
			ds->worse += y && !strcmp(vk_ab_str(vk_jget(y, "status"), ""), "fail") &&
				  !(x && !strcmp(vk_ab_str(vk_jget(x, "status"), ""), "fail"));
		}
	}
}

void vk_ab_diff(struct vk_ab_diffs *ds, const struct vk_ab_docs *a, const struct vk_ab_docs *b)
{
	ds->n = 0;
	ds->worse = 0;
	diff_clocksource(ds, a->info, b->info);
	diff_functions(ds, a->info, b->info);
	diff_results(ds, "fallback", 1, a->fallback, b->fallback);
	diff_results(ds, "verify", 0, a->verify, b->verify);
}
