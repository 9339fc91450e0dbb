/* SPDX-License-Identifier: MIT */
/*
 * inspect: what a vDSO image's code does, read with a disassembler, on
 * any arch from any host. Per exported function: its size, instructions,
 * largest stack adjustment, stack probes, indirect branches, calls out,
 * system calls, barriers and counter reads. Per image: the checks a vDSO
 * must pass (relocations, undefined symbols, W+X, unwind tables, indirect
 * branches, stack probes, GNU properties). And B against A per function.
 * Built only where LLVM's C API is (the Makefile's VK_HAVE_LLVM).
 */
#ifndef VK_INSPECT_H
#define VK_INSPECT_H

#include <stddef.h>
#include <stdint.h>

#include "core/image/image.h"
#include "core/inspect/insp_model.h"

/*
 * Read im's code and run the checks into *out. 0 on success; with
 * out->err set, never a check's failure: -1 where inspect does not know
 * the image's arch, -2 for vdsokit's own error (no memory, an LLVM
 * without the arch's disassembler).
 */
int vk_inspect(const struct vk_image *im, struct vk_inspect *out);
void vk_inspect_free(struct vk_inspect *in);
int vk_inspect_diff(const struct vk_inspect *a, const struct vk_inspect *b,
		    struct vk_insp_diff *d);
void vk_inspect_diff_free(struct vk_insp_diff *d);

#endif /* VK_INSPECT_H */
