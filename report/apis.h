/* SPDX-License-Identifier: MIT */
/* The API table as `vdsokit list-apis` shows it, beside one vDSO image. */
#ifndef VK_REPORT_APIS_H
#define VK_REPORT_APIS_H

#include <stdio.h>

#include "core/base/sysinfo.h"
#include "core/image/image.h"

struct vk_api_row {
	const struct vk_api *api;
	struct vk_image_func f;	/* f.found: this image exports it */
	int time32_off;		/* absent as a kernel without CONFIG_COMPAT_32BIT_TIME builds it */
};

struct vk_api_list {
	const char *version;	/* vdsokit's */
	const struct vk_sysinfo *sys;	/* the system it ran on */
	const char *image;	/* the image's source, NULL without one */
	const char *abi;	/* the ABI whose symbol names are shown */
	const long *sysno;	/* its syscall numbers by function, NULL if not known */
	size_t n;
	struct vk_api_row *rows;
};

/* "exported", "absent", "wrong version", or "no vDSO" without an image. */
const char *vk_report_api_status(const struct vk_api_list *l, const struct vk_api_row *r);

#endif /* VK_REPORT_APIS_H */
