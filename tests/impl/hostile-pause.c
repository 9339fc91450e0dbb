// SPDX-License-Identifier: MIT
/* Every function waits forever, using no CPU: only a watchdog that
 * counts the time a call is blocked ends it at its stated time. */
#include <unistd.h>

#define HOSTILE_BODY                                                            \
	for (;;)                                                                \
		pause()
#include "hostile.h"
