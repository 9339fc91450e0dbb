// SPDX-License-Identifier: MIT
/* Not an --impl: an LD_PRELOAD library that stands in for a kernel with
 * aux clocks to a process allowed to enable them: each
 * /sys/kernel/time/aux_clocks/N/aux_clock_enable is the file N under
 * $VK_AUX_FAKE, and clock_adjtime() of an aux clock succeeds. The reads
 * of the clocks stay the kernel's: what the file holds after a run is
 * what is checked. Each write waits a while first, as on a loaded
 * machine, so that a run that ends before its last write shows. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/timex.h>
#include <time.h>

#include "preload-aux.h"

int open(const char *path, int flags, ...)
{
	const char *dir = getenv("VK_AUX_FAKE");
	char fake[4096];
	mode_t mode;

	PRELOAD_OPEN_MODE(flags, mode);
	if (dir && !strncmp(path, AUX_DIR "/", sizeof(AUX_DIR))) {
		snprintf(fake, sizeof(fake), "%s/%c", dir, path[sizeof(AUX_DIR)]);
		path = fake;
		if ((flags & O_ACCMODE) != O_RDONLY)
			usleep(300000);
	}
	return preload_real_open(path, flags, mode);
}

int clock_adjtime(clockid_t id, struct timex *tx)
{
	int (*real)(clockid_t, struct timex *) =
		(int (*)(clockid_t, struct timex *))dlsym(RTLD_NEXT, "clock_adjtime");

	return id >= 16 && id <= 23 ? 0 : real(id, tx);
}
