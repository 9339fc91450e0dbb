/* SPDX-License-Identifier: MIT */
/* --output DIR's reproducers: DIR/repro/NAME.c and NAME.txt per finding. */
#ifndef VK_CLI_REPRO_H
#define VK_CLI_REPRO_H

#include "core/result/findings.h"
#include "cli/output.h"

/*
 * Write each finding's report (NAME.txt) and, where it has one, its C
 * reproducer (NAME.c) into DIR/repro, made if missing, and remove the
 * .c and .txt files there of findings this run no longer has. They join
 * the files already in set (all's reports; NULL: none), which are
 * replaced with them, whole or not at all. 0, or VK_EXIT_USAGE after
 * saying what could not be written. version is vdsokit's, for the report.
 */
int vk_repro_write(const char *version, const char *dir,
		   const struct vk_findings *fs, struct vk_files *set);
/* The same for the findings in one command's results. */
int vk_repro_write_results(const char *version, const char *command,
			   const char *dir,
			   const struct vk_results *rs);

#endif /* VK_CLI_REPRO_H */
