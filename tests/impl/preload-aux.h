/* SPDX-License-Identifier: MIT */
/*
 * For the stand-ins for a kernel with aux clocks (preload-aux-*.c): the
 * sysfs directory verify looks for is there, whatever the kernel has.
 */
#ifndef VK_PRELOAD_AUX_H
#define VK_PRELOAD_AUX_H

#include <string.h>
#include <unistd.h>

#include "preload.h"

#define AUX_DIR "/sys/kernel/time/aux_clocks"

int access(const char *path, int mode)
{
	int (*real)(const char *, int) = (int (*)(const char *, int))dlsym(RTLD_NEXT, "access");

	return strcmp(path, AUX_DIR) ? real(path, mode) : 0;
}

#endif /* VK_PRELOAD_AUX_H */
