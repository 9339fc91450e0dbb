/* SPDX-License-Identifier: MIT */
/*
 * Findings: the failed results of every command, grouped so that one
 * cause is named once. A failure of return values groups by function and
 * by what each side returned (success, or which errno), whichever command
 * saw it, so that verify's errno rule and abi's cases that break on the
 * same clocks make one finding. Any other failure groups by function,
 * command and rule.
 */
#ifndef VK_FINDINGS_H
#define VK_FINDINGS_H

#include "core/result/result.h"
#include "core/call/targets.h"

#define VK_MAX_FINDINGS 16
#define VK_FINDING_CMDS 4

struct vk_finding {
	char key[128];
	char what[128];		/* "clock_getres succeeds where the syscall fails with EINVAL" */
	unsigned paths;		/* VK_PATH_BIT()s it was seen on */
	int ids[VK_MAX_CLOCKS];	/* the clocks it covers, sorted */
	int nids;
	char others[96];	/* clocks without an id of their own: "cpu:self" */
	size_t checks;		/* failed checks, all commands together */
	struct {
		const char *command;
		size_t checks;
	} by[VK_FINDING_CMDS];
	int nby;
	const char *example_cmd;	/* the command of the example */
	const struct vk_result *example;	/* in the results it came from */
	const struct vk_result *plain;	/* its first result with plain calls (vk_result_plain), or NULL */
};

struct vk_findings {
	struct vk_finding f[VK_MAX_FINDINGS];
	size_t n;
	size_t unsorted;	/* failed checks past the table's room */
};

/* Group command's failed results into fs, but the unconfirmed
 * (core/confirm); rs must outlive fs. */
void vk_findings_add(struct vk_findings *fs, const char *command, const struct vk_results *rs);
/* The clocks a finding covers: "16-23", "monotonic, 15, cpu:self". */
void vk_finding_clocks(char *buf, size_t len, const struct vk_finding *f);
/* The command line that shows the example again. */
void vk_finding_reproduce(char *buf, size_t len, const struct vk_finding *f);

#endif /* VK_FINDINGS_H */
