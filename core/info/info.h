/* SPDX-License-Identifier: MIT */
/*
 * What `vdsokit info` reports: the facts a report needs to be read, of
 * this process's vDSO or of an image file. vk_info_read() gathers them;
 * report/'s info reporters print them and compute nothing of their own.
 */
#ifndef VK_INFO_H
#define VK_INFO_H

#include <stddef.h>

#include "core/call/vsyscall.h"
#include "core/image/image.h"
#include "core/base/sysinfo.h"
#include "core/result/result.h"

struct vk_info_func {
	enum vk_func id;
	int applies;		/* the function exists for this image's ABI */
	struct vk_image_func f;
	char runs[160];		/* live image: "userspace" or "falls back to ..." */
	enum vk_ran ran;	/* the same, for a reader that counts */
	const char *y2038;	/* a time entry: "y2038-safe" or why not; else NULL */
	const char *absent;	/* it applies but is absent: "not exported", or
				 * "nulled out in place" where nameless ones are */
	const char *follows;	/* what its absence means for libc's calls */
	int time32_off;		/* absent as a kernel without CONFIG_COMPAT_32BIT_TIME builds it */
};

struct vk_info {
	const char *version;	/* vdsokit's */
	const char *build_abi;
	struct vk_sysinfo sys;
	struct vk_vsyscall vsyscall;	/* this process's, whatever image info reads */
	const struct vk_image *im;	/* NULL when there is no image */
	const char *no_image;	/* why not */
	size_t size;
	char linux_note[32];	/* kernel version from the "Linux" note, or "" */
	char build_id[2 * 64 + 1];	/* hex, or "" */
	char hash_problem[160];	/* "" when every hash table agrees */
	int nulled;		/* defined FUNC symbols whose names were nulled out */
	struct vk_info_func funcs[VK_NALLFUNCS];
	size_t napply;		/* funcs[] that apply */
};

/*
 * Fill *in (zeroed) from im (NULL: no image) and the system; the
 * clocksource and the vsyscall page are this process's, and where im is
 * the live vDSO, whether each function stays in userspace is probed.
 */
void vk_info_read(struct vk_info *in, const struct vk_image *im);

#endif /* VK_INFO_H */
