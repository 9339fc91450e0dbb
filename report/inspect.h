/* SPDX-License-Identifier: MIT */
/* inspect's reporters: each image's functions and checks, and B against A. */
#ifndef VK_REPORT_INSPECT_H
#define VK_REPORT_INSPECT_H

#include "core/inspect/insp_model.h"
#include "report/out.h"

void vk_report_inspect_text(const struct vk_out *o, const struct vk_inspect_report *r);
void vk_report_inspect_json(const struct vk_out *o, const struct vk_inspect_report *r);

#endif /* VK_REPORT_INSPECT_H */
