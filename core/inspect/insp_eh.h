/* SPDX-License-Identifier: MIT */
/* The ranges .eh_frame's FDEs cover, read within the image's bounds. */
#ifndef VK_INSP_EH_H
#define VK_INSP_EH_H

#include <stddef.h>
#include <stdint.h>

#include "core/image/elf.h"

struct vk_insp_fdes {
	int found;		/* the image has an .eh_frame */
	const char *where;	/* "section .eh_frame" or "PT_GNU_EH_FRAME" */
	const char *none;	/* why none was found, where found is 0 */
	size_t n;
	uint64_t lo[256], hi[256];
	char err[128];		/* where the walk stopped on a malformed record */
};

void vk_insp_fdes(const struct vk_elf *e, struct vk_insp_fdes *f);
/* Whether an FDE covers part of [addr, addr + size): x86's ENDBR64 may
 * precede the function's .cfi_startproc (vsgx.S under SYM_FUNC_START). */
int vk_insp_fde_covers(const struct vk_insp_fdes *f, uint64_t addr, uint64_t size);

#endif /* VK_INSP_EH_H */
