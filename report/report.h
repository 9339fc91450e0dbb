/* SPDX-License-Identifier: MIT */
/*
 * Reporters of check results (verify, abi, fallback): they print what the
 * checks recorded, in the format asked for, and compute nothing.
 */
#ifndef VK_REPORT_H
#define VK_REPORT_H

#include <stdio.h>

#include "core/result/result.h"
#include "report/format.h"

struct vk_json;

struct vk_report {
	const char *command;	/* "verify" */
	const char *version;	/* vdsokit's */
	double seconds;		/* -d */
	unsigned paths;
	int stopped;		/* the failure limit cut an API's repeats short */
	const struct vk_results *rs;
	const struct vk_results *legacy;	/* vdsotest's own cases, or NULL */
	/* More members of the JSON object, before the results, or NULL. */
	void (*json_more)(struct vk_json *j, const void *ctx);
	const void *ctx;
};

void vk_report_text(FILE *f, const struct vk_report *r);
void vk_report_ktap(FILE *f, const struct vk_report *r);
void vk_report_json(FILE *f, const struct vk_report *r);
/* vdsotest's "DESCRIPTION<pad> OK|FAIL|SKIP" lines; r->legacy's first. */
void vk_report_vdsotest(FILE *f, const struct vk_report *r);
/* Under vdsotest's names, its -v: 1 prints the result lines and bench's
 * call counts, 0, as vdsotest without -v, only failures' reasons and
 * their count. Unset, the result lines print and the counts do not. */
void vk_report_vdsotest_verbose(int on);
int vk_report_vdsotest_counts(void);
/* Print r in format: KTAP, JSON, vdsotest's, or text by the command's own text reporter. */
void vk_report_results(FILE *f, enum vk_format format, const struct vk_report *r,
		       void (*text)(FILE *, const struct vk_report *));
/* abi's outcomes by class, per function and path (counted by the command). */
struct vk_abi_count {
	const char *func;
	enum vk_path path;
	size_t identical, allowed, unexpected, skipped;
};

void vk_report_abi_text(FILE *f, const struct vk_report *r, const struct vk_abi_count *c,
			size_t n);
/* fallback's answers: one line per API and path, what it does and why. */
void vk_report_fallback_text(FILE *f, const struct vk_report *r);

#endif /* VK_REPORT_H */
