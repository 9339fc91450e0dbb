/* SPDX-License-Identifier: MIT */
/*
 * Where a document prints: its stream and format, and for a format that
 * nests documents (KTAP's subtests), its depth and name in its parent.
 * The dispatch (report/format.c) makes one and hands it to every
 * reporter, with itself for the documents inside one.
 */
#ifndef VK_REPORT_OUT_H
#define VK_REPORT_OUT_H

#include <stdio.h>

struct vk_doc;
struct vk_formatter;

struct vk_out {
	FILE *f;
	const struct vk_formatter *fm;	/* the format's row */
	int depth;		/* 0: the top document */
	const char *name;	/* a nested document's */
	/* Prints a document inside this one (all's steps): the dispatch,
	 * handed down so that no reporter includes it. */
	void (*nest)(const struct vk_out *o, const struct vk_doc *d);
};

#endif /* VK_REPORT_OUT_H */
