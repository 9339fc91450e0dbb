// SPDX-License-Identifier: MIT
/*
 * Opens a vDSO image, the live one or a file, and finds its functions, so
 * that every command reads or calls the image through one struct (image.h).
 */
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "core/base/file.h"
#include "core/image/image.h"

/* The largest file taken as a vDSO image; real ones are a few pages. */
#define MAX_IMAGE_SIZE (16u << 20)

static int open_elf(struct vk_image *im, const void *base, size_t size)
{
	int err = vk_elf_open(&im->elf, base, size);

	if (err) {
		snprintf(im->err, sizeof(im->err), "%s: %s", im->source, im->elf.err);
		return err;
	}
	im->arch = vk_arch_find(im->elf.machine, im->elf.is64, im->elf.flags);
	return 0;
}

int vk_image_open_live(struct vk_image *im)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	size_t size;

	memset(im, 0, sizeof(*im));
	im->source = "AT_SYSINFO_EHDR";
	im->live = 1;
	if (!base) {
		snprintf(im->err, sizeof(im->err),
			 "this process has no vDSO (AT_SYSINFO_EHDR is 0)");
		return -VK_IMAGE_ENOVDSO;
	}
	/* The kernel maps at least the page holding the headers. */
	size = vk_elf_image_size((const void *)base, page, page);
	if (!size) {
		snprintf(im->err, sizeof(im->err),
			 "the vDSO at %#lx has invalid ELF headers", base);
		return -VK_ELF_ELAYOUT;
	}
	return open_elf(im, (const void *)base, size);
}

static int read_all(int fd, unsigned char **out, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	unsigned char *buf = malloc(cap), *p;
	ssize_t r;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (n == cap) {
			if (cap > MAX_IMAGE_SIZE) {
				free(buf);
				return -EFBIG;
			}
			cap *= 2;
			p = realloc(buf, cap);
			if (!p) {
				free(buf);
				return -ENOMEM;
			}
			buf = p;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return -errno;
		}
		if (r == 0)
			break;
		n += r;
	}
	if (n > MAX_IMAGE_SIZE) {
		free(buf);
		return -EFBIG;
	}
	*out = buf;
	*len = n;
	return 0;
}

int vk_image_open_file(struct vk_image *im, const char *path)
{
	size_t len = 0;
	int fd, err;

	memset(im, 0, sizeof(*im));
	im->source = path;
	fd = vk_open_regular(path, im->err, sizeof(im->err));
	if (fd < 0)
		return -VK_IMAGE_EIO;
	err = read_all(fd, &im->copy, &len);
	close(fd);
	if (err == -EFBIG) {
		snprintf(im->err, sizeof(im->err),
			 "%s: larger than %u MiB, too large to be a vDSO image", path,
			 MAX_IMAGE_SIZE >> 20);
		return -VK_IMAGE_EIO;
	}
	if (err) {
		snprintf(im->err, sizeof(im->err), "%s: %s", path, strerror(-err));
		return -VK_IMAGE_EIO;
	}
	return open_elf(im, im->copy, len);
}

void vk_image_close(struct vk_image *im)
{
	free(im->copy);
	im->copy = NULL;
}

int vk_image_func(const struct vk_image *im, enum vk_func f,
		  struct vk_image_func *out)
{
	memset(out, 0, sizeof(*out));
	if (!im->arch)
		return -1;
	snprintf(out->want, sizeof(out->want), "%s%s", im->arch->prefix, vk_funcs[f].name);
	out->want_version = im->arch->version;
	if (vk_elf_lookup(&im->elf, out->want, out->want_version, &out->sym) == 0) {
		out->found = 1;
		return 0;
	}
	/* Tell "absent" apart from "exported, but under another version",
	 * hidden versions included. */
	for (size_t i = 1; i < im->elf.nsyms; i++) {
		if (vk_elf_sym(&im->elf, i, &out->sym) == 0 && out->sym.shndx != SHN_UNDEF &&
		    strcmp(out->sym.name, out->want) == 0) {
			out->wrong_version = 1;
			break;
		}
	}
	return -1;
}

static int exports(const struct vk_image *im, enum vk_func f)
{
	struct vk_image_func out;

	return vk_image_func(im, f, &out) == 0;
}

int vk_image_time32_off(const struct vk_image *im)
{
	return vk_func_time32(im->arch, VK_FN_CLOCK_GETTIME) &&
	       exports(im, VK_FN_CLOCK_GETTIME64) && !exports(im, VK_FN_CLOCK_GETTIME) &&
	       !exports(im, VK_FN_CLOCK_GETRES);
}

void *vk_image_addr(const struct vk_image *im, const struct vk_elf_sym *s)
{
	if (!im->live || s->offset == SIZE_MAX)
		return NULL;
	return (void *)(im->elf.base + s->offset);
}
