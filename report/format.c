// SPDX-License-Identifier: MIT
/*
 * The formats: one table says how each prints each kind of document, so
 * that a command prints without knowing its format (format.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/apis.h"
#include "report/bench.h"
#include "report/compare.h"
#include "report/format.h"
#include "report/info.h"
#include "report/inspect.h"
#include "report/report.h"
#include "report/summary.h"

static const struct vk_formatter none = { .name = "none" };

/* The formats: a row each, by enum vk_format. */
static const struct vk_formatter *const formatters[] = {
	[VK_FMT_TEXT] = &vk_formatter_text,
	[VK_FMT_KTAP] = &vk_formatter_ktap,
	[VK_FMT_JSON] = &vk_formatter_json,
	[VK_FMT_CSV] = &vk_formatter_csv,
	[VK_FMT_MARKDOWN] = &vk_formatter_markdown,
	[VK_FMT_HTML] = &vk_formatter_html,
	[VK_FMT_VDSOTEST] = &vk_formatter_vdsotest,
	[VK_FMT_OPENMETRICS] = &vk_formatter_openmetrics,
	[VK_FMT_NONE] = &none,
};

/* The one dispatch: d's content to its format's reporter for its kind,
 * if the format prints that kind. */
static void render(const struct vk_out *o, const struct vk_doc *d)
{
	const struct vk_formatter *fm = o->fm;

	switch (d->kind) {
	case VK_DOC_SKIPPED:
		if (fm->skipped)
			fm->skipped(o, d->skipped);
		break;
	case VK_DOC_RESULTS:
		if (fm->results)
			fm->results(o, d->results);
		break;
	case VK_DOC_BENCH:
		if (fm->bench)
			fm->bench(o, d->bench);
		break;
	case VK_DOC_COMPARE:
		if (fm->compare)
			fm->compare(o, d->compare);
		break;
	case VK_DOC_INFO:
		if (fm->info)
			fm->info(o, d->info);
		break;
	case VK_DOC_APIS:
		if (fm->apis)
			fm->apis(o, d->apis);
		break;
	case VK_DOC_SUMMARY:
		if (fm->summary)
			fm->summary(o, d->summary);
		break;
	case VK_DOC_INSPECT:
		if (fm->inspect)
			fm->inspect(o, d->inspect);
		break;
	default:
		fprintf(stderr, "vdsokit: %s's document has no kind of content\n", d->command);
		abort();
	}
}

void vk_render(FILE *f, enum vk_format format, const struct vk_doc *d)
{
	render(&(const struct vk_out){ .f = f, .fm = formatters[format], .nest = render }, d);
}

const char *vk_format_name(enum vk_format f)
{
	return formatters[f]->name;
}

/* 1 when fm prints kind. */
static int renders(const struct vk_formatter *fm, enum vk_doc_kind kind)
{
	switch (kind) {
	case VK_DOC_SKIPPED:
		return fm->skipped != NULL;
	case VK_DOC_RESULTS:
		return fm->results != NULL;
	case VK_DOC_BENCH:
		return fm->bench != NULL;
	case VK_DOC_COMPARE:
		return fm->compare != NULL;
	case VK_DOC_INFO:
		return fm->info != NULL;
	case VK_DOC_APIS:
		return fm->apis != NULL;
	case VK_DOC_SUMMARY:
		return fm->summary != NULL;
	case VK_DOC_INSPECT:
		return fm->inspect != NULL;
	}
	return 0;
}

static int takes(enum vk_format f, const struct vk_formats *t)
{
	return f == t->also || (f != VK_FMT_NONE && renders(formatters[f], t->kind));
}

int vk_format_parse(const char *name, const struct vk_formats *t)
{
	for (int f = 0; f < VK_FMT_NONE; f++) {
		if (takes(f, t) && !strcmp(name, formatters[f]->name))
			return f;
	}
	return -1;
}

const char *vk_format_list(char *buf, size_t size, const struct vk_formats *t, const char *first)
{
	size_t len = 0, left = 0;

	for (int f = 0; f < VK_FMT_NONE; f++)
		left += takes(f, t);
	buf[0] = '\0';
	for (int f = 0; f < VK_FMT_NONE && len < size; f++) {
		if (!takes(f, t))
			continue;
		len += snprintf(buf + len, size - len, "%s%s%s", !len ? "" : left == 1 ? " or " : ", ",
				formatters[f]->name, !len ? first : "");
		left--;
	}
	return buf;
}
