// SPDX-License-Identifier: MIT
/*
 * vdsotest's abi cases, so that a farm that switches to vdsokit keeps
 * every result name it has: the same cases, described in vdsotest's
 * words. Its pointer kinds map onto abi's: a malloc'd object is a valid
 * one, its mprotect()ed pages are the PROT_NONE and read-only pages.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/base/array.h"
#include "core/abi/abi.h"

/* vdsotest's argument kinds, in its order, and its words for them. */
static const struct {
	enum vk_ptr ptr;
	const char *words;
} kinds[] = {
	{ VK_PTR_VALID, "valid" },
	{ VK_PTR_NULL, "NULL" },
	{ VK_PTR_MAX, "UINTPTR_MAX" },
	{ VK_PTR_PROT_NONE, "page (PROT_NONE)" },
	{ VK_PTR_READONLY, "page (PROT_READ)" },
};

#define NKINDS ARRAY_SIZE(kinds)

static int bad(size_t kind)
{
	return kinds[kind].ptr != VK_PTR_VALID && kinds[kind].ptr != VK_PTR_NULL;
}

struct list {
	struct vk_abi_case *c;
	size_t n, max;
};

static struct vk_abi_case *add(struct list *l, enum vk_func f, int sys_errno)
{
	struct vk_abi_case *c;

	if (l->n >= l->max)
		return NULL;
	c = &l->c[l->n++];
	memset(c, 0, sizeof(*c));
	c->func = f;
	c->sys_errno = sys_errno;
	return c;
}

/*
 * NULL, UINTPTR_MAX and the two pages as the timespec, then clock id -1
 * with a valid timespec and with NULL. The syscall refuses every bad
 * pointer with EFAULT, except that clock_getres() takes NULL, and the
 * bad id with EINVAL.
 */
static void clock_cases(struct list *l, const struct vk_api *api)
{
	static const struct {
		enum vk_ptr ptr;
		int bogus_id;
		const char *what;
	} cases[] = {
		{ VK_PTR_NULL, 0, "NULL" },
		{ VK_PTR_MAX, 0, "UINTPTR_MAX" },
		{ VK_PTR_PROT_NONE, 0, "PROT_NONE page" },
		{ VK_PTR_READONLY, 0, "PROT_READ page" },
		{ VK_PTR_VALID, 1, "bogus clock id" },
		{ VK_PTR_NULL, 1, "bogus clock id and NULL" },
	};
	const char *fn = vk_funcs[api->func].name;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int getres_null = vk_funcs[api->func].kind == VK_KIND_GETRES &&
				  cases[i].ptr == VK_PTR_NULL;
		struct vk_abi_case *c = add(l, api->func,
					    cases[i].bogus_id ? EINVAL : getres_null ? 0 : EFAULT);

		if (!c)
			return;
		c->clock = cases[i].bogus_id ? -1 : api->clock;
		/* Results name the API, even for the bogus id. */
		snprintf(c->clock_name, sizeof(c->clock_name), "%s", vk_clock_name(api->clock));
		c->ptr[0] = cases[i].ptr;
		snprintf(c->args, sizeof(c->args), "passing %s to %s", cases[i].what, fn);
	}
}

/* Every combination; a bad tv or tz is EFAULT. */
static void tod_cases(struct list *l, const struct vk_api *api)
{
	for (size_t tv = 0; tv < NKINDS; tv++) {
		for (size_t tz = 0; tz < NKINDS; tz++) {
			struct vk_abi_case *c = add(l, api->func, bad(tv) || bad(tz) ? EFAULT : 0);

			if (!c)
				return;
			c->ptr[0] = kinds[tv].ptr;
			c->ptr[1] = kinds[tz].ptr;
			snprintf(c->args, sizeof(c->args), "gettimeofday(%s, %s)", kinds[tv].words,
				 kinds[tz].words);
		}
	}
}

/* Every combination, the cache innermost; it is ignored, so only a bad
 * cpu or node is EFAULT. */
static void getcpu_cases(struct list *l, const struct vk_api *api)
{
	for (size_t cpu = 0; cpu < NKINDS; cpu++) {
		for (size_t node = 0; node < NKINDS; node++) {
			for (size_t cache = 0; cache < NKINDS; cache++) {
				struct vk_abi_case *c = add(l, api->func,
							    bad(cpu) || bad(node) ? EFAULT : 0);

				if (!c)
					return;
				c->ptr[0] = kinds[cpu].ptr;
				c->ptr[1] = kinds[node].ptr;
				c->ptr[2] = kinds[cache].ptr;
				snprintf(c->args, sizeof(c->args), "getcpu(%s, %s, %s)",
					 kinds[cpu].words, kinds[node].words, kinds[cache].words);
			}
		}
	}
}

/* vdsotest's cases of each kind it has. */
static void (*const cases_of[VK_NKINDS])(struct list *l, const struct vk_api *api) = {
	[VK_KIND_GETTIME] = clock_cases,
	[VK_KIND_GETRES] = clock_cases,
	[VK_KIND_TOD] = tod_cases,
	[VK_KIND_GETCPU] = getcpu_cases,
};

/* The APIs vdsotest has: the time32-named functions of the kinds it has
 * cases of, a clock function's for seven clocks. */
static int vdsotest_has(const struct vk_api *api)
{
	static const char *const clocks[] = { "realtime", "monotonic", "realtime-coarse",
					      "monotonic-coarse", "boottime", "monotonic-raw",
					      "tai" };
	const struct vk_func_info *f = &vk_funcs[api->func];
	const char *clock = vk_clock_name(api->clock);

	if (!cases_of[f->kind] || f->time64)
		return 0;
	if (f->shape != VK_SHAPE_CLOCK_TS)
		return 1;
	for (size_t i = 0; clock && i < ARRAY_SIZE(clocks); i++) {
		if (!strcmp(clock, clocks[i]))
			return 1;
	}
	return 0;
}

size_t vk_abi_vdsotest_cases(const struct vk_api *api, struct vk_abi_case *cases, size_t max)
{
	struct list l = { cases, 0, max };

	if (vdsotest_has(api))
		cases_of[vk_funcs[api->func].kind](&l, api);
	return l.n;
}
