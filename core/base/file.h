/* SPDX-License-Identifier: MIT */
/*
 * The files vdsokit is given to read (an image, a library, a kernel, a
 * bench file) are regular files: a FIFO, a socket or a device would
 * block the read, or never end it, and a directory has nothing to read.
 */
#ifndef VK_FILE_H
#define VK_FILE_H

#include <stddef.h>

/*
 * path opened to read, if it is a regular file: the descriptor, or -1
 * with errno set (EISDIR for a directory, EINVAL for another kind of
 * file) and "PATH: why" in err. Never blocks: only a regular file is
 * opened (a FIFO's open would wait for a writer), and the opened file
 * is looked at again, as the name may have changed in between.
 */
int vk_open_regular(const char *path, char *err, size_t len);
/* Whether path is a regular file to read (for a reader that opens it
 * itself: the loader, qemu): 0, or -1 as vk_open_regular(). */
int vk_check_regular(const char *path, char *err, size_t len);

#endif /* VK_FILE_H */
