// SPDX-License-Identifier: MIT
/* Not a bug: clock_gettime as 20 syscalls, the base of syscalls-21.so. */
#define SYSCALLS 20
#include "syscalls.h"
