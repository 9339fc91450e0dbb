// SPDX-License-Identifier: MIT
/* Not a bug: clock_gettime as 50 syscalls, the base of syscalls-51.so. */
#define SYSCALLS 50
#include "syscalls.h"
