// SPDX-License-Identifier: MIT
/* Every function loops forever: only a watchdog ends it. */
#define HOSTILE_BODY                                                            \
	for (;;)                                                                \
		__asm__ volatile("" ::: "memory")
#include "hostile.h"
