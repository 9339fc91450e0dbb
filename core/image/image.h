/* SPDX-License-Identifier: MIT */
/*
 * A vDSO image to inspect or call: the running process's own, found at
 * AT_SYSINFO_EHDR, or one read from a file. Only the live image can be
 * called; a file image is for reading.
 */
#ifndef VK_IMAGE_H
#define VK_IMAGE_H

#include <stddef.h>

#include "core/base/api.h"
#include "core/base/arch.h"
#include "core/image/elf.h"

/* Returned (negated) by vk_image_open_*() beside the vk_elf_error codes. */
#define VK_IMAGE_ENOVDSO 100	/* this process has no vDSO */
#define VK_IMAGE_EIO 101	/* the file cannot be read */

struct vk_image {
	struct vk_elf elf;
	const struct vk_arch *arch;	/* NULL for an ABI not in the table */
	unsigned char *copy;		/* the file's bytes, owned */
	const char *source;		/* "AT_SYSINFO_EHDR" or the path */
	int live;
	char err[256];
};

/* A function of the API table, as the image exports it. */
struct vk_image_func {
	struct vk_elf_sym sym;
	char want[64];		/* the symbol name a libc asks for */
	const char *want_version;
	int found;		/* found under the version a libc asks for */
	int wrong_version;	/* the name exists, but not at that version */
};

int vk_image_open_live(struct vk_image *im);
int vk_image_open_file(struct vk_image *im, const char *path);
void vk_image_close(struct vk_image *im);

int vk_image_func(const struct vk_image *im, enum vk_func f,
		  struct vk_image_func *out);
/*
 * Whether the image is a vDSO built without CONFIG_COMPAT_32BIT_TIME,
 * which from Linux 7.3 on leaves a 32-bit-time ABI's time32 entries out:
 * it exports clock_gettime64 and neither clock_gettime nor clock_getres.
 * Then vk_func_time32() says which of its absent entries the option
 * explains, and this reason says so.
 */
int vk_image_time32_off(const struct vk_image *im);
#define VK_WHY_VDSO_NO_TIME32 "the vDSO has no time32 entries (CONFIG_COMPAT_32BIT_TIME is off)"
/* The address to call for a symbol of the live image, or NULL. */
void *vk_image_addr(const struct vk_image *im, const struct vk_elf_sym *s);

#endif /* VK_IMAGE_H */
