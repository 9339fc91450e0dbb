/* SPDX-License-Identifier: MIT */
/* Bench's document, struct vk_bench_report (core/benchfile/model.h), which
 * each format's file prints (report/text.c, json.c, ...). */
#ifndef VK_REPORT_BENCH_H
#define VK_REPORT_BENCH_H

#include "core/benchfile/model.h"

#endif /* VK_REPORT_BENCH_H */
