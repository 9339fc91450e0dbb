/* SPDX-License-Identifier: MIT */
/*
 * The KTAP v1 writer, as kselftest.h is the kernel's: a reporter that
 * prints KTAP prints every line through these, and builds none itself.
 * A document is its header, a plan, a result line per test with "# "
 * diagnostics after it, and its totals. A subtest is a document one
 * level inside another: each of its lines is indented by two spaces per
 * level, and its header names it, so a document prints the same at any
 * depth (Documentation/dev-tools/ktap.rst).
 */
#ifndef VK_REPORT_KTAP_H
#define VK_REPORT_KTAP_H

#include <stddef.h>

#include "report/out.h"

enum vk_ktap_result { VK_KTAP_PASS, VK_KTAP_FAIL, VK_KTAP_SKIP, VK_KTAP_ERROR };

/* "KTAP version 1", then a subtest's "# Subtest: NAME". */
void vk_ktap_header(const struct vk_out *o);
/* "1..N" */
void vk_ktap_plan(const struct vk_out *o, size_t n);
/* Test n's line: "ok N DESC", "not ok N DESC", "ok N DESC # SKIP WHY" or
 * "not ok N DESC # ERROR WHY" (KTAP v1's directive for a test whose run
 * failed for the error WHY: vdsokit's own, not the code under test's);
 * why is SKIP's or ERROR's reason (NULL or "" for none), else unused. */
void vk_ktap_result(const struct vk_out *o, enum vk_ktap_result r, size_t n, const char *why,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* "# " and a diagnostic; fmt has no newline. */
void vk_ktap_diag(const struct vk_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "# Totals: ...", kselftest's line, error: ERROR's count */
void vk_ktap_totals(const struct vk_out *o, size_t pass, size_t fail, size_t skip, size_t error);
/* A whole document in which nothing ran: the header, "1..0 # SKIP WHY". */
void vk_ktap_skip_all(const struct vk_out *o, const char *why);
/* The subtest named name, one level inside o. */
struct vk_out vk_ktap_subtest(const struct vk_out *o, const char *name);

#endif /* VK_REPORT_KTAP_H */
