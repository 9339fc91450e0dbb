// SPDX-License-Identifier: MIT
/* Every function ends the process with status 3, vdsokit's own or not. */
#include <unistd.h>

#define HOSTILE_BODY _exit(3)
#include "hostile.h"
