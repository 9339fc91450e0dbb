/* SPDX-License-Identifier: MIT */
/*
 * Reporters of check results (verify, abi, fallback): they print what the
 * checks recorded, in the format asked for, and compute nothing.
 */
#ifndef VK_REPORT_H
#define VK_REPORT_H

#include <stdio.h>

#include "core/base/sysinfo.h"
#include "core/result/result.h"

struct vk_json;
struct vk_out;

struct vk_report {
	const char *command;	/* "verify" */
	const char *version;	/* vdsokit's */
	const struct vk_sysinfo *sys;	/* the system it ran on */
	double seconds;		/* -d */
	unsigned paths;
	int stopped;		/* the failure limit cut an API's repeats short */
	/* Text: each passing check's bound too, not only their sum below. */
	int verbose;
	/* What passing checks' bounds sum to (vk_results_bounds()): text
	 * prints these in one line. */
	struct vk_bounds order, skew, stack;
	const struct vk_results *rs;
	const struct vk_results *legacy;	/* vdsotest's own cases, or NULL */
	/* The command's own text layout, or NULL for vk_report_text's. */
	void (*text)(FILE *f, const struct vk_report *r);
	/* More members of the JSON object, before the results, or NULL. */
	void (*json_more)(struct vk_json *j, const void *ctx);
	/* More "# " lines at the end of the KTAP document, or NULL. */
	void (*ktap_more)(const struct vk_out *k, const void *ctx);
	const void *ctx;	/* the hooks' */
};

void vk_report_text(FILE *f, const struct vk_report *r);
/* The cases that broke r's rule, "flags 0x6, flags 0x7", or "" where it
 * names fewer than two: the detail names the first. */
void vk_report_cases(char *buf, size_t len, const struct vk_result *r);
/* " (broken 2 times in 38 calls: flags 0x6, flags 0x7)": how often, and
 * each case where more than one broke. */
void vk_report_broken(char *buf, size_t len, const struct vk_result *r);
/* Under vdsotest's names, its -v: 1 prints the result lines and bench's
 * call counts, 0, as vdsotest without -v, only failures' reasons and
 * their count. Unset, the result lines print and the counts do not. */
void vk_report_vdsotest_verbose(int on);
/* Under vdsotest's names, its -g: 1 prints vdsotest's debug lines,
 * "FUNCTION:LINE: MESSAGE" on stdout at once, naming vdsokit's function
 * and line; unset, none. */
void vk_report_vdsotest_debug(int on);
void vk_report_vdsotest_debug_line(const char *fn, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* verify's moves between CPUs (struct vk_verify's moved), in vdsotest's words. */
void vk_report_vdsotest_moved(const char *fn, int line, int cpu);
/* abi's outcomes by class, per function and path (counted by the command). */
struct vk_abi_count {
	const char *func;
	enum vk_path path;
	size_t identical, allowed, unexpected, skipped;
	size_t cases;		/* the four together */
};

struct vk_abi_counts {
	const struct vk_abi_count *c;
	size_t n;
};

/* abi's text layout: r->ctx is its struct vk_abi_counts. */
void vk_report_abi_text(FILE *f, const struct vk_report *r);
/* fallback's answers: one line per API and path, what it does and why. */
void vk_report_fallback_text(FILE *f, const struct vk_report *r);

#endif /* VK_REPORT_H */
