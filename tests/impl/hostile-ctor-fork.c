// SPDX-License-Identifier: MIT
/*
 * The constructor forks a helper that lives 600 s in the loader's process
 * group, holding every file descriptor it inherited (a pipe's write end
 * among them): whoever reads that pipe to its end, or waits for every
 * child, waits for it, past tests/cases/hostile_impl.sh's 300 s bound.
 */
#include <unistd.h>

#include "impl.h"

#define HELPER_SECONDS 600

__attribute__((constructor)) static void hostile_ctor(void)
{
	if (fork() == 0) {
		sleep(HELPER_SECONDS);
		_exit(0);
	}
}
