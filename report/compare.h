/* SPDX-License-Identifier: MIT */
/* Reporters of a comparison: its rows as compare judged them. */
#ifndef VK_REPORT_COMPARE_H
#define VK_REPORT_COMPARE_H

#include <stdio.h>

#include "core/benchfile/model.h"

/* compare/2: in the common envelope, the threshold among its options. */
#define VK_COMPARE_VERSION 2

/* " (+7.0% beyond the machine's own +2.0%)": a verdict given although the
 * machine moved, how far beyond its move; "" where it did not move. */
const char *vk_report_compare_beyond(char *buf, size_t size, const struct vk_compare_row *r);
/* "3 faster, 1 slower, 30 unchanged; geometric mean 0.97" */
#define VK_COMPARE_ONELINE 160
const char *vk_report_compare_oneline(char *buf, size_t size,
				      const struct vk_compare_report *rep);

#endif /* VK_REPORT_COMPARE_H */
