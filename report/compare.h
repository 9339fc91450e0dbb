/* SPDX-License-Identifier: MIT */
/* Reporters of a comparison: its rows as compare judged them. */
#ifndef VK_REPORT_COMPARE_H
#define VK_REPORT_COMPARE_H

#include <stdio.h>

#include "core/benchfile/model.h"

/* compare/2: in the common envelope, the threshold among its options. */
#define VK_COMPARE_VERSION 2

struct vk_out;
void vk_report_compare_text(const struct vk_out *o, const struct vk_compare_report *rep);
void vk_report_compare_json(const struct vk_out *o, const struct vk_compare_report *rep);
/* "3 faster, 1 slower, 30 unchanged; geometric mean 0.97" */
#define VK_COMPARE_ONELINE 160
const char *vk_report_compare_oneline(char *buf, size_t size,
				      const struct vk_compare_report *rep);
/* One KTAP v1 document: a result per row, not ok for a regression. */
void vk_report_compare_ktap(const struct vk_out *k, const struct vk_compare_report *rep);

#endif /* VK_REPORT_COMPARE_H */
