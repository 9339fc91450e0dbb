/* SPDX-License-Identifier: MIT */
/* Reporters of a comparison: its rows as compare judged them. */
#ifndef VK_REPORT_COMPARE_H
#define VK_REPORT_COMPARE_H

#include <stdio.h>

#include "../core/compare.h"

struct vk_compare_report {
	const char *version;	/* of the tool */
	const char *old, *new;	/* the files, or the sides measured */
	int interleaved;	/* measured side by side in this process */
	double threshold;	/* percent */
	const struct vk_compare_row *rows;
	size_t nrows;
	size_t regressions, improvements, significant_within;
	size_t not_compared;	/* skipped, or on one side only */
};

void vk_report_compare(FILE *f, int json, const struct vk_compare_report *rep);

#endif /* VK_REPORT_COMPARE_H */
