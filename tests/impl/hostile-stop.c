// SPDX-License-Identifier: MIT
/* Every function stops its process (SIGSTOP, which it cannot block):
 * no CPU used, and nobody continues it but a watchdog's SIGKILL. */
#define HOSTILE_BODY raise(SIGSTOP)
#include "hostile.h"
