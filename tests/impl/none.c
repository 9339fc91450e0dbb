// SPDX-License-Identifier: MIT
/*
 * No __vdso_* function at all: a library that serves nothing, so that
 * 'compare --impl' has nothing to measure on both sides (exit 4). Built
 * for the ABI under test, as every impl is, unlike a host 'cc' library.
 */
int impl_serves_nothing;
