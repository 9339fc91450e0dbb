/* SPDX-License-Identifier: MIT */
/*
 * What info's reporters share beside its model (core/info/info.h), which
 * they print and compute nothing of their own.
 */
#ifndef VK_REPORT_INFO_H
#define VK_REPORT_INFO_H

#include <stdio.h>

#include "core/info/info.h"

/* A symbol's name with its version, "clock_gettime@@LINUX_2.6". */
const char *vk_report_symver(char *buf, size_t len, const struct vk_elf_sym *s);
const char *vk_report_tristate(enum vk_tristate t);

#endif /* VK_REPORT_INFO_H */
