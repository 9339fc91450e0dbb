/* SPDX-License-Identifier: MIT */
/* Reporters of bench results: the figures as measured, in each format. */
#ifndef VK_REPORT_BENCH_H
#define VK_REPORT_BENCH_H

#include <stdio.h>

#include "core/benchfile/model.h"
#include "report/format.h"

void vk_report_bench_text(FILE *f, const struct vk_bench_report *rep);
void vk_report_bench_json(FILE *f, const struct vk_bench_report *rep);
void vk_report_bench_csv(FILE *f, const struct vk_bench_report *rep);
struct vk_ktap;
void vk_report_bench_ktap(const struct vk_ktap *k, const struct vk_bench_report *rep);
/* vdsotest's "API: PATH: N nsec/call" lines. */
void vk_report_bench_vdsotest(FILE *f, const struct vk_bench_report *rep);
/* One self-contained HTML file: no script, inline SVG (report/html.c). */
void vk_report_bench_html(FILE *f, const struct vk_bench_report *rep);

#endif /* VK_REPORT_BENCH_H */
