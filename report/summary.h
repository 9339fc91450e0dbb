/* SPDX-License-Identifier: MIT */
/*
 * The reporters of `vdsokit all`'s summary (core/summary/summary.h): they
 * print what they are given and compute nothing; they know no step by
 * its name.
 */
#ifndef VK_REPORT_SUMMARY_H
#define VK_REPORT_SUMMARY_H

#include <stdio.h>

#include "core/summary/summary.h"
#include "report/bench.h"
#include "report/info.h"

/* "ok", "FAIL", "SKIP" or "ERROR". */
const char *vk_outcome_name(enum vk_outcome o);

#endif /* VK_REPORT_SUMMARY_H */
