// SPDX-License-Identifier: MIT
/*
 * The newc cpio format every kernel unpacks as an initramfs: a 110-byte
 * ASCII header per entry, its name, then its data, each padded to four
 * bytes, and a TRAILER!!! entry at the end.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/isolate.h"
#include "core/vm/vm.h"

static int put(struct vk_cpio *c, const void *buf, size_t len)
{
	c->off += len;
	return vk_write_all(c->fd, buf, len);
}

static int pad(struct vk_cpio *c)
{
	static const char zeros[4];

	return put(c, zeros, (4 - c->off % 4) % 4);
}

static int entry(struct vk_cpio *c, const char *name, unsigned mode, const void *data,
		 size_t len)
{
	char h[160];
	size_t namesize = strlen(name) + 1;

	if (len > 0xffffffffu)
		return -1;

	/* Owned by root, one link (two for a directory), time 0: the same
	 * inputs give the same bytes. */
	snprintf(h, sizeof(h), "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		 c->ino++, mode, 0, 0, S_ISDIR(mode) ? 2 : 1, 0, (unsigned)len, 0, 0, 0, 0,
		 (unsigned)namesize, 0);
	if (put(c, h, 110) || put(c, name, namesize) || pad(c))
		return -1;
	return put(c, data, len) || pad(c) ? -1 : 0;
}

void vk_cpio_start(struct vk_cpio *c, int fd)
{
	c->fd = fd;
	c->off = 0;
	c->ino = 1;
}

int vk_cpio_dir(struct vk_cpio *c, const char *name)
{
	return entry(c, name, S_IFDIR | 0755, NULL, 0);
}

int vk_cpio_file(struct vk_cpio *c, const char *name, unsigned mode, const void *data,
		 size_t len)
{
	return entry(c, name, S_IFREG | mode, data, len);
}

int vk_cpio_finish(struct vk_cpio *c)
{
	return entry(c, "TRAILER!!!", 0, NULL, 0);
}
