// SPDX-License-Identifier: MIT
/* The correct implementation: every --impl check must pass on it. */
#include "impl.h"
#include "futex.h"
