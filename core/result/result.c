// SPDX-License-Identifier: MIT
/*
 * The results list every check writes to and every reporter reads, with
 * the tallies and groups the reports show (result.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/result/result.h"

/* Running out of memory for a few results leaves nothing sensible to do. */
static void *must(void *p)
{
	if (!p) {
		perror("vdsokit");
		exit(2);
	}
	return p;
}

struct vk_result *vk_results_add(struct vk_results *rs, const char *api, enum vk_path path,
				 const char *check)
{
	struct vk_result *r = must(calloc(1, sizeof(*r)));

	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? 2 * rs->cap : 64;
		rs->r = must(realloc(rs->r, rs->cap * sizeof(*rs->r)));
	}
	rs->r[rs->n++] = r;
	snprintf(r->api, sizeof(r->api), "%s", api);
	snprintf(r->check, sizeof(r->check), "%s", check);
	r->path = path;
	r->status = VK_PASS;
	return r;
}

/* Only the first failure's values are kept; later ones are counted. */
void vk_result_fail(struct vk_results *rs, struct vk_result *r, const char *fmt, ...)
{
	va_list ap;

	if (r->fails++)
		return;
	if (r->status == VK_ERROR)
		rs->errors--;
	r->status = VK_FAIL;
	rs->fails++;
	va_start(ap, fmt);
	vsnprintf(r->detail, sizeof(r->detail), fmt, ap);
	va_end(ap);
}

void vk_result_skip(struct vk_result *r, const char *fmt, ...)
{
	va_list ap;

	r->status = VK_SKIP;
	va_start(ap, fmt);
	vsnprintf(r->detail, sizeof(r->detail), fmt, ap);
	va_end(ap);
}

void vk_result_error(struct vk_results *rs, struct vk_result *r, const char *fmt, ...)
{
	va_list ap;

	if (r->status == VK_FAIL || r->status == VK_ERROR)
		return;
	r->status = VK_ERROR;
	rs->errors++;
	va_start(ap, fmt);
	vsnprintf(r->detail, sizeof(r->detail), fmt, ap);
	va_end(ap);
}

void vk_result_unconfirm(struct vk_results *rs, struct vk_result *r, const char *fmt, ...)
{
	size_t n = strlen(r->detail);
	va_list ap;

	if (r->status != VK_FAIL || r->confirm == VK_UNCONFIRMED)
		return;
	r->confirm = VK_UNCONFIRMED;
	rs->unconfirmed++;
	n += (size_t)snprintf(r->detail + n, sizeof(r->detail) - n, "; unconfirmed: ");
	va_start(ap, fmt);
	if (n < sizeof(r->detail))
		vsnprintf(r->detail + n, sizeof(r->detail) - n, fmt, ap);
	va_end(ap);
}

void vk_result_returns(struct vk_result *r, long ret, long sys_ret)
{
	if (r->returns)
		return;
	r->returns = 1;
	r->ret = ret;
	r->sys_ret = sys_ret;
}

void vk_result_plain(struct vk_result *r, unsigned flags, long ret, long sys_ret)
{
	for (int i = 0; i < r->nplain; i++) {
		if (r->plain[i].flags == flags)
			return;
	}
	if (r->nplain == VK_RESULT_CASES)
		return;
	r->plain[r->nplain++] = (struct vk_plain){ .flags = flags, .ret = ret, .sys_ret = sys_ret };
}

void vk_result_case(struct vk_result *r, const char *fmt, ...)
{
	char name[sizeof(r->cases[0])] = "";	/* whole: its copy is sent whole */
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	for (int i = 0; i < r->ncases; i++) {
		if (!strcmp(r->cases[i], name))
			return;
	}
	if (r->ncases == VK_RESULT_CASES)
		r->more_cases++;
	else
		memcpy(r->cases[r->ncases++], name, sizeof(name));
}

const char *vk_errno_name(long e)
{
	switch (e) {
	case EFAULT: return "EFAULT";
	case EINVAL: return "EINVAL";
	case EPERM: return "EPERM";
	case ENOSYS: return "ENOSYS";
	case EAGAIN: return "EAGAIN";
	case ENODEV: return "ENODEV";
	default: return "errno";
	}
}

int vk_result_cut(const struct vk_results *rs, struct vk_result *r, unsigned long long fails)
{
	if (!rs->max_fails || fails < rs->max_fails)
		return 0;
	r->cut = 1;
	return 1;
}

static int bounded(const struct vk_result *r, enum vk_bound kind)
{
	return r->status == VK_PASS && r->bound == kind;
}

/* Whether an earlier result of kind than i's is of the same API. */
static int api_seen(const struct vk_results *rs, size_t i, enum vk_bound kind)
{
	for (size_t k = 0; k < i; k++) {
		if (bounded(rs->r[k], kind) && !strcmp(rs->r[k]->api, rs->r[i]->api))
			return 1;
	}
	return 0;
}

struct vk_bounds vk_results_bounds(const struct vk_results *rs, enum vk_bound kind)
{
	struct vk_bounds b = { 0 };

	for (size_t i = 0; i < rs->n; i++) {
		const struct vk_result *r = rs->r[i];

		if (!bounded(r, kind))
			continue;
		if (!b.checks++ || r->bound_ns < b.lo)
			b.lo = r->bound_ns;
		if (r->bound_ns > b.hi)
			b.hi = r->bound_ns;
		b.apis += !api_seen(rs, i, kind);
	}
	return b;
}

void vk_results_finish(struct vk_results *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		struct vk_result *r = rs->r[i];

		if (r->status == VK_PASS && !r->calls)
			vk_result_error(rs, r, "compared nothing: %s",
					r->detail[0] ? r->detail : "no answer of the path under test was checked");
	}
}

void vk_results_keep(struct vk_results *rs, int (*keep)(const char *check, void *ctx), void *ctx)
{
	size_t n = 0;

	rs->fails = rs->errors = rs->unconfirmed = 0;
	for (size_t i = 0; i < rs->n; i++) {
		struct vk_result *r = rs->r[i];

		if (!keep(r->check, ctx)) {
			free(r);
			continue;
		}
		rs->fails += r->status == VK_FAIL;
		rs->errors += r->status == VK_ERROR;
		rs->unconfirmed += r->status == VK_FAIL && r->confirm == VK_UNCONFIRMED;
		rs->r[n++] = r;
	}
	rs->n = n;
}

static void count(struct vk_tally *t, const struct vk_result *r)
{
	enum vk_status s = r->status;

	t->pass += s == VK_PASS;
	t->fail += s == VK_FAIL;
	t->skip += s == VK_SKIP;
	t->error += s == VK_ERROR;
	t->unconfirmed += s == VK_FAIL && r->confirm == VK_UNCONFIRMED;
}

struct vk_tally vk_results_tally(const struct vk_results *rs)
{
	struct vk_tally t = { 0 };

	for (size_t i = 0; i < rs->n; i++)
		count(&t, rs->r[i]);
	return t;
}

struct vk_results_group vk_results_group(const struct vk_results *rs, size_t i)
{
	struct vk_results_group g = { .end = i };

	while (g.end < rs->n && rs->r[g.end]->path == rs->r[i]->path &&
	       !strcmp(rs->r[g.end]->api, rs->r[i]->api)) {
		const struct vk_result *r = rs->r[g.end++];

		g.calls += r->calls;
		count(&g.t, r);
		if (!g.first_fail && r->status == VK_FAIL)
			g.first_fail = r->check;
		if (!g.first_error && r->status == VK_ERROR)
			g.first_error = r->check;
	}
	g.n = g.end - i;
	return g;
}

size_t vk_results_cut(const struct vk_results *rs)
{
	size_t n = 0;

	for (size_t i = 0; i < rs->n; i++)
		n += rs->r[i]->cut;
	return n;
}

void vk_results_free(struct vk_results *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		free(rs->r[i]);
	free(rs->r);
	memset(rs, 0, sizeof(*rs));
}

void vk_results_append(struct vk_results *rs, const struct vk_result *src)
{
	struct vk_result *r = vk_results_add(rs, src->api, src->path, src->check);

	*r = *src;
	rs->fails += r->status == VK_FAIL;
	rs->errors += r->status == VK_ERROR;
	rs->unconfirmed += r->status == VK_FAIL && r->confirm == VK_UNCONFIRMED;
}
