/* SPDX-License-Identifier: MIT */
/*
 * What differs in kind between two kernels, from the JSON reports that
 * info, fallback, verify and bench printed in each one's guests (vm
 * --kernel A --kernel B): the clocksource each kernel settled on, the
 * functions each vDSO exports, where each call runs (userspace or the
 * syscall), each verify result; and which of those make B worse than A.
 * Reads parsed documents only: no guest is booted here.
 */
#ifndef VK_VM_AB_H
#define VK_VM_AB_H

#include <stddef.h>

#include "core/base/json_read.h"

#define VK_AB_MAX_DIFFS 256

enum vk_ab_verdict {
	VK_AB_CHANGE,		/* differs, neither better nor worse */
	VK_AB_REGRESSION,	/* B worse: a function lost, a call sent to the syscall, a new failure */
	VK_AB_IMPROVEMENT,	/* the reverse */
};

struct vk_ab_diff {
	const char *kind;	/* "clocksource", "function", "call", "verify" */
	char what[96];		/* "current", the function, "clock_gettime(CLOCK_TAI)", "API path check" */
	char a[160], b[160];	/* what A and B had */
	enum vk_ab_verdict verdict;
};

struct vk_ab_diffs {
	struct vk_ab_diff d[VK_AB_MAX_DIFFS];
	size_t n, total;	/* kept (the first VK_AB_MAX_DIFFS), and found */
	int worse, better;	/* regressions and improvements found */
};

/* One kernel's reports, each NULL when its command gave none. */
struct vk_ab_docs {
	const struct vk_jval *info, *fallback, *verify;	/* its first boot's */
	const struct vk_jval *const *bench;		/* every boot's, in order */
	size_t nbench;
};

/* What vm's A/B found, for report/ to print: everything but compare's
 * table, which compare prints itself. */
struct vk_ab {
	const char *kernel[2], *release[2], *arch;
	unsigned long rounds;
	int emulated;		/* a boot ran under TCG */
	const char *bench[2];	/* A's and B's bench files, or NULL: none */
	const struct vk_ab_diff *diffs;
	size_t ndiffs, total;	/* printed, and found */
	int worse, better;	/* regressions and improvements in kind found */
};

/* What differs between a's and b's reports, in that order, into ds. */
void vk_ab_diff(struct vk_ab_diffs *ds, const struct vk_ab_docs *a, const struct vk_ab_docs *b);
/* v's string, or none when it is not one. */
const char *vk_ab_str(const struct vk_jval *v, const char *none);
/* "regression", "improvement", or "" for a mere change. */
const char *vk_ab_verdict_name(enum vk_ab_verdict v);

#endif /* VK_VM_AB_H */
