// SPDX-License-Identifier: MIT
/* The constructor ends the process with status 0 at dlopen(). */
#include <unistd.h>

#include "impl.h"

__attribute__((constructor)) static void hostile_ctor(void)
{
	_exit(0);
}
