// SPDX-License-Identifier: MIT
/* Every function crashes. */
#define HOSTILE_BODY raise(SIGSEGV)
#include "hostile.h"
