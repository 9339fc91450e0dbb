/* SPDX-License-Identifier: MIT */
/* What `vdsokit vm --kernel A --kernel B` found to differ in kind, printed. */
#ifndef VK_REPORT_VM_AB_H
#define VK_REPORT_VM_AB_H

#include <stdio.h>

#include "core/vm/vm_ab.h"

struct vk_ab {
	const char *kernel[2], *release[2], *arch;
	unsigned long rounds;
	int emulated;		/* a boot ran under TCG */
	const char *bench[2];	/* A's and B's bench files, or NULL: none */
	const struct vk_ab_diff *diffs;
	size_t ndiffs, total;	/* printed, and found */
	int worse, better;	/* regressions and improvements in kind found */
};

/* Everything but compare's table, which compare prints itself. */
void vk_report_ab(FILE *f, const struct vk_ab *ab);

#endif /* VK_REPORT_VM_AB_H */
