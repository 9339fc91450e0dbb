/* SPDX-License-Identifier: MIT */
/*
 * Documents' formats. Each command run makes one document
 * (report/doc.h): its command and its content (check results, bench
 * rows, a comparison, facts, or all's summary of its steps). One table of
 * formatters, a row per format, says how each format prints each kind of
 * content, so that a command never asks which format it prints in, and a
 * new format is one file and one row. A command's --format takes the
 * formats that print its kind of document, so that a reporter written
 * is a format offered; one parser reads them all.
 */
#ifndef VK_REPORT_FORMAT_H
#define VK_REPORT_FORMAT_H

#include <stddef.h>
#include <stdio.h>

#include "report/doc.h"
#include "report/out.h"

enum vk_format {
	VK_FMT_TEXT, VK_FMT_KTAP, VK_FMT_JSON, VK_FMT_CSV, VK_FMT_MARKDOWN, VK_FMT_HTML,
	VK_FMT_VDSOTEST, VK_FMT_OPENMETRICS,
	VK_FMT_NONE,		/* prints nothing: `all` keeps the results for its own report */
};

/* The formats a command takes: those with a reporter for its kind of
 * document, in the order of enum vk_format, and also one it prints
 * itself (all's JSON: its steps' documents, as they run), or
 * VK_FMT_NONE. */
struct vk_formats {
	enum vk_doc_kind kind;
	enum vk_format also;
};


/* How one format prints each kind of content; NULL where it does not. */
struct vk_formatter {
	const char *name;	/* as --format takes it */
	void (*skipped)(const struct vk_out *o, const char *why);
	void (*results)(const struct vk_out *o, const struct vk_report *r);
	void (*bench)(const struct vk_out *o, const struct vk_bench_report *r);
	void (*compare)(const struct vk_out *o, const struct vk_compare_report *r);
	void (*info)(const struct vk_out *o, const struct vk_info *r);
	void (*apis)(const struct vk_out *o, const struct vk_api_list *r);
	void (*summary)(const struct vk_out *o, const struct vk_summary *r);
	void (*inspect)(const struct vk_out *o, const struct vk_inspect_report *r);
};

/* The formats' rows, each in its format's file (report/csv.c, ...). */
extern const struct vk_formatter vk_formatter_text, vk_formatter_ktap, vk_formatter_json, vk_formatter_csv, vk_formatter_markdown, vk_formatter_html,
	vk_formatter_vdsotest, vk_formatter_openmetrics;

/* Print d in format. */
void vk_render(FILE *f, enum vk_format format, const struct vk_doc *d);

const char *vk_format_name(enum vk_format f);
/* name's format when t takes it; else -1. */
int vk_format_parse(const char *name, const struct vk_formats *t);
/* t's formats as a message names them, first after the first one's name:
 * "text, ktap or json", or with first " (default)", "text (default), ...". */
const char *vk_format_list(char *buf, size_t size, const struct vk_formats *t, const char *first);

#endif /* VK_REPORT_FORMAT_H */
