/* SPDX-License-Identifier: MIT */
/* Reporters of a comparison: its rows as compare judged them. */
#ifndef VK_REPORT_COMPARE_H
#define VK_REPORT_COMPARE_H

#include <stdio.h>

#include "core/base/sysinfo.h"
#include "core/bench/compare.h"

/* compare/2: in the common envelope, the threshold among its options. */
#define VK_COMPARE_VERSION 2

/* One setting of the two runs' environments, for the diff above the table. */
struct vk_env_field {
	const char *what;	/* "CPU model": the text's */
	const char *key;	/* "cpu_model": the JSON's */
	const char *old, *new;	/* "unknown" when a file does not say */
};

#define VK_ENV_FIELDS 4

struct vk_compare_report {
	const char *version;	/* of the tool */
	const struct vk_sysinfo *sys;	/* the system compare ran on */
	const char *old, *new;	/* the files, or the sides measured */
	int old_runs, new_runs;	/* files a side (0 side by side) */
	int interleaved;	/* measured side by side in this process */
	int copies;		/* then: the loads of each library */
	double threshold;	/* percent */
	const struct vk_compare_row *rows;
	size_t nrows;
	size_t regressions, improvements, significant_within;
	size_t no_verdict;	/* too few runs, or the machine moved */
	size_t beyond_machine;	/* verdicts given although the machine moved */
	/* The reference loops in each file (NAN: unknown): ns per step of the
	 * multiply-adds and per syscall; their ratios; whether each moved
	 * beyond the threshold. Files only. */
	double ref_old, ref_new, loads_old, loads_new, sys_old, sys_new;
	struct vk_compare_machine machine;
	int machine_moved, loads_moved, syscall_moved;
	size_t not_compared;	/* skipped, or on one side only */
	double geomean;		/* of the new/old ratios; 1 is no change */
	struct vk_env_field env[VK_ENV_FIELDS];	/* two files' environments */
	int nenv;
};

struct vk_out;
void vk_report_compare_text(const struct vk_out *o, const struct vk_compare_report *rep);
void vk_report_compare_json(const struct vk_out *o, const struct vk_compare_report *rep);
/* A before, after and ratio table for a commit message. */
void vk_report_compare_markdown(const struct vk_out *o, const struct vk_compare_report *rep);
/* "3 faster, 1 slower, 30 unchanged; geometric mean 0.97" */
#define VK_COMPARE_ONELINE 160
const char *vk_report_compare_oneline(char *buf, size_t size,
				      const struct vk_compare_report *rep);
/* One KTAP v1 document: a result per row, not ok for a regression. */
void vk_report_compare_ktap(const struct vk_out *k, const struct vk_compare_report *rep);
/* One self-contained HTML file: no script, inline SVG (report/html.c). */
void vk_report_compare_html(const struct vk_out *o, const struct vk_compare_report *rep);

#endif /* VK_REPORT_COMPARE_H */
