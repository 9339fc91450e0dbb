/* SPDX-License-Identifier: MIT */
/* stress's report: the results, and what it found and put back. */
#ifndef VK_REPORT_STRESS_H
#define VK_REPORT_STRESS_H

#include <stdio.h>

#include "core/stress/stress.h"
#include "report/report.h"

/* r's hooks for stress's text, and its JSON's and KTAP's lines of end. */
void vk_report_stress_hooks(struct vk_report *r, const struct vk_stress_end *end);

#endif /* VK_REPORT_STRESS_H */
