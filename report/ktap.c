// SPDX-License-Identifier: MIT
/*
 * The KTAP writer: the only code that spells KTAP's lines, so that every
 * command's KTAP is the same grammar (ktap.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "report/ktap.h"

/* One line at o's depth: lead, fmt's text, then a directive and its reason. */
static void line(const struct vk_out *o, const char *lead, const char *directive, const char *why,
		 const char *fmt, va_list ap)
{
	fprintf(o->f, "%*s%s", 2 * o->depth, "", lead);
	vfprintf(o->f, fmt, ap);
	fprintf(o->f, "%s%s\n", directive, why);
}

static void put(const struct vk_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void put(const struct vk_out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line(o, "", "", "", fmt, ap);
	va_end(ap);
}

void vk_ktap_header(const struct vk_out *o)
{
	put(o, "KTAP version 1");
	if (o->depth)
		put(o, "# Subtest: %s", o->name);
}

void vk_ktap_plan(const struct vk_out *o, size_t n)
{
	put(o, "1..%zu", n);
}

/* " WHY" for ERROR's reason, in a buffer of its own. */
static const char *sep_why(const char *why)
{
	static char buf[800];

	snprintf(buf, sizeof(buf), " %s", why);
	return buf;
}

void vk_ktap_result(const struct vk_out *o, enum vk_ktap_result r, size_t n, const char *why,
		    const char *fmt, ...)
{
	const char *ok = r == VK_KTAP_FAIL || r == VK_KTAP_ERROR ? "not ok" : "ok";
	char lead[32];
	va_list ap;

	snprintf(lead, sizeof(lead), "%s %zu ", ok, n);
	va_start(ap, fmt);
	line(o, lead, r == VK_KTAP_SKIP ? " # SKIP " : r == VK_KTAP_ERROR ? " # ERROR" : "",
	     r == VK_KTAP_SKIP ? why : r == VK_KTAP_ERROR && why && *why ? sep_why(why) : "", fmt,
	     ap);
	va_end(ap);
}

void vk_ktap_diag(const struct vk_out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line(o, "# ", "", "", fmt, ap);
	va_end(ap);
}

void vk_ktap_totals(const struct vk_out *o, size_t pass, size_t fail, size_t skip, size_t error)
{
	put(o, "# Totals: pass:%zu fail:%zu xfail:0 xpass:0 skip:%zu error:%zu", pass, fail, skip,
	    error);
}

void vk_ktap_skip_all(const struct vk_out *o, const char *why)
{
	vk_ktap_header(o);
	put(o, "1..0 # SKIP %s", why);
}

struct vk_out vk_ktap_subtest(const struct vk_out *o, const char *name)
{
	struct vk_out sub = *o;

	sub.depth++;
	sub.name = name;
	return sub;
}
