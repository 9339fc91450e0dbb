/* SPDX-License-Identifier: MIT */
/* Reporters of bench results: the figures as measured, in each format. */
#ifndef VK_REPORT_BENCH_H
#define VK_REPORT_BENCH_H

#include <stdio.h>

#include "core/benchfile/model.h"

struct vk_out;
void vk_report_bench_text(const struct vk_out *o, const struct vk_bench_report *rep);
void vk_report_bench_json(const struct vk_out *o, const struct vk_bench_report *rep);

#endif /* VK_REPORT_BENCH_H */
