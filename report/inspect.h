/* SPDX-License-Identifier: MIT */
/* inspect's reporters: each image's functions and checks, and B against A. */
#ifndef VK_REPORT_INSPECT_H
#define VK_REPORT_INSPECT_H

#include "core/inspect/insp_model.h"
#include "report/out.h"

/* Each kind of site's name: "indirect", "call", ... */
extern const char *const vk_report_insp_kinds[VK_INSP_NKINDS];


#endif /* VK_REPORT_INSPECT_H */
