/* SPDX-License-Identifier: MIT */
/*
 * What differs in kind between two kernels, from the JSON reports that
 * info, fallback and verify printed in each one's guest (vm --kernel A
 * --kernel B): the functions each vDSO exports and where each runs, the
 * clocksource, each fallback and verify result. Reads parsed documents
 * only: no guest is booted here.
 */
#ifndef VK_VM_AB_H
#define VK_VM_AB_H

#include <stddef.h>

#include "core/base/json_read.h"

#define VK_AB_MAX_DIFFS 256

struct vk_ab_diff {
	const char *kind;	/* "function", "clocksource", "fallback", "verify" */
	char what[96];		/* the function, "current", or "API path check" */
	char a[128], b[128];	/* what A and B said */
};

struct vk_ab_diffs {
	struct vk_ab_diff d[VK_AB_MAX_DIFFS];
	size_t n;		/* the first VK_AB_MAX_DIFFS are kept */
	int worse;		/* results B fails and A does not */
};

/* One kernel's reports, each NULL when its command gave none. */
struct vk_ab_docs {
	const struct vk_jval *info, *fallback, *verify;
};

/* What differs between a's and b's reports, in that order, into ds. */
void vk_ab_diff(struct vk_ab_diffs *ds, const struct vk_ab_docs *a, const struct vk_ab_docs *b);
/* v's string, or none when it is not one. */
const char *vk_ab_str(const struct vk_jval *v, const char *none);

#endif /* VK_VM_AB_H */
