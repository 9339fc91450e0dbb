// SPDX-License-Identifier: MIT
/* Every function ends the process with status 0: a row, never a pass. */
#include <unistd.h>

#define HOSTILE_BODY _exit(0)
#include "hostile.h"
