// SPDX-License-Identifier: MIT
/* Not an --impl: an LD_PRELOAD library that stands in for a kernel with
 * aux clocks to a process allowed to enable them: each
 * /sys/kernel/time/aux_clocks/N/aux_clock_enable is the file N under
 * $VK_AUX_FAKE, and clock_adjtime() of an aux clock succeeds. The reads
 * of the clocks stay the kernel's: what the file holds after a run is
 * what is checked. */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timex.h>
#include <time.h>
#include <unistd.h>

#define AUX_DIR "/sys/kernel/time/aux_clocks"

int access(const char *path, int mode)
{
	int (*real)(const char *, int) = (int (*)(const char *, int))dlsym(RTLD_NEXT, "access");

	return strcmp(path, AUX_DIR) ? real(path, mode) : 0;
}

int open(const char *path, int flags, ...)
{
	int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	const char *dir = getenv("VK_AUX_FAKE");
	char fake[4096];
	mode_t mode = 0;
	va_list ap;

	va_start(ap, flags);
	if (flags & O_CREAT)
		mode = va_arg(ap, mode_t);
	va_end(ap);
	if (dir && !strncmp(path, AUX_DIR "/", sizeof(AUX_DIR))) {
		snprintf(fake, sizeof(fake), "%s/%c", dir, path[sizeof(AUX_DIR)]);
		path = fake;
	}
	return real(path, flags, mode);
}

int clock_adjtime(clockid_t id, struct timex *tx)
{
	int (*real)(clockid_t, struct timex *) =
		(int (*)(clockid_t, struct timex *))dlsym(RTLD_NEXT, "clock_adjtime");

	return id >= 16 && id <= 23 ? 0 : real(id, tx);
}
