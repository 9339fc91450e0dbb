/* SPDX-License-Identifier: MIT */
/*
 * KTAP v1 documents, nested: a document at depth d is a subtest, each of
 * its lines indented by two spaces per level and its version line
 * followed by "# Subtest: NAME". Every KTAP reporter prints its lines
 * through vk_ktap_line(), so a document prints the same at any depth.
 */
#ifndef VK_REPORT_KTAP_H
#define VK_REPORT_KTAP_H

#include <stdio.h>

#include "report/format.h"

struct vk_ktap {
	FILE *f;
	int depth;		/* 0: the top document */
	const char *name;	/* a subtest's */
};

/* "KTAP version 1", and a subtest's name. */
void vk_ktap_begin(const struct vk_ktap *k);
/* One line at k's depth; fmt has no newline. */
void vk_ktap_line(const struct vk_ktap *k, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* d as a KTAP document at k's depth. */
void vk_ktap_doc(const struct vk_ktap *k, const struct vk_doc *d);
/* The same at the top: the formatter table's KTAP row. */
void vk_report_ktap_doc(FILE *f, const struct vk_doc *d);

#endif /* VK_REPORT_KTAP_H */
