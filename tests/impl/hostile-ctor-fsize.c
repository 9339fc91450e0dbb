// SPDX-License-Identifier: MIT
/* The constructor sets RLIMIT_FSIZE to 0, soft and hard: the process that
 * loads it is killed by SIGXFSZ at its next write to a file. */
#include <sys/resource.h>

#include "impl.h"

__attribute__((constructor)) static void hostile_ctor(void)
{
	struct rlimit none = { 0, 0 };

	setrlimit(RLIMIT_FSIZE, &none);
}
