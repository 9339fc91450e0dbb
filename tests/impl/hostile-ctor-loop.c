// SPDX-License-Identifier: MIT
/* The constructor never returns from dlopen(). */
#include "impl.h"

__attribute__((constructor)) static void hostile_ctor(void)
{
	for (;;)
		__asm__ volatile("" ::: "memory");
}
