// SPDX-License-Identifier: MIT
/* The constructor crashes at dlopen(). */
#include <signal.h>

#include "impl.h"

__attribute__((constructor)) static void hostile_ctor(void)
{
	raise(SIGSEGV);
}
