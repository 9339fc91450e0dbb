/* SPDX-License-Identifier: MIT */
/* stress's report: the results, and what it found and put back. */
#ifndef VK_REPORT_STRESS_H
#define VK_REPORT_STRESS_H

#include <stdio.h>

#include "core/stress/stress.h"
#include "report/report.h"

void vk_report_stress(FILE *f, enum vk_format format, const struct vk_report *r,
		      const struct vk_stress_end *end);

#endif /* VK_REPORT_STRESS_H */
