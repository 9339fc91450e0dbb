/* SPDX-License-Identifier: MIT */
/* inspect's whole-image checks, on the image and what inspect read of its code. */
#ifndef VK_INSP_CHECKS_H
#define VK_INSP_CHECKS_H

#include "core/image/elf.h"
#include "core/inspect/insp_arch.h"
#include "core/inspect/insp_model.h"

void vk_insp_checks(const struct vk_elf *e, const struct vk_insp_arch *row,
		    struct vk_inspect *out);

#endif /* VK_INSP_CHECKS_H */
