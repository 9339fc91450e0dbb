/* SPDX-License-Identifier: MIT */
/*
 * Reproducers of findings, for the kernel's list: a standalone C file
 * (libc only) that makes a finding's plain call through this process's
 * vDSO and as the syscall and exits 1 where they differ, and a report to
 * send with it. Both are rendered from the finding's own fields.
 */
#ifndef VK_REPORT_REPRO_H
#define VK_REPORT_REPRO_H

#include <stdio.h>
#include <sys/utsname.h>

#include "core/result/findings.h"

/* The files' name without .c or .txt: "clock_getres-ok-EINVAL". */
void vk_repro_name(char *buf, size_t len, const struct vk_finding *f);
/* Whether f has a C reproducer: a plain call (vk_result_plain) of
 * clock_gettime, clock_getres, their time64 twins or getrandom. */
int vk_repro_has_c(const struct vk_finding *f);
/* The C file; only where vk_repro_has_c(). */
void vk_repro_c(FILE *out, const struct vk_finding *f);
/* The report: subject, kernel and arch, what each side does, why it
 * matters to callers, and how to reproduce it. */
void vk_repro_txt(FILE *out, const struct vk_finding *f, const struct utsname *uts,
		  const char *version);

#endif /* VK_REPORT_REPRO_H */
