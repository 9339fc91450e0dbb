// SPDX-License-Identifier: MIT
/* The constructor waits forever in dlopen(), using no CPU. */
#include <unistd.h>

#include "impl.h"

__attribute__((constructor)) static void hostile_ctor(void)
{
	for (;;)
		pause();
}
