/* SPDX-License-Identifier: MIT */
/*
 * Confirming a failure before it is the kernel's: its recorded plain
 * calls made again in a vdsokit exec()ed afresh (README.md).
 */
#ifndef VK_CONFIRM_H
#define VK_CONFIRM_H

#include "core/result/result.h"

/*
 * Each failed result of rs with plain calls: each call made again in a
 * child that exec()s argv (vdsokit's command that takes the probe's
 * option, "--plain-probe" last) with the call's spec and, for the impl
 * path, "--impl impl". A result whose calls all return there what the
 * syscall returns is marked unconfirmed (vk_result_unconfirm), as is one
 * vdsokit could not repeat (no fork, no exec: it is not confirmed).
 */
void vk_confirm_results(struct vk_results *rs, char *const *argv, const char *impl);

/* In the exec()ed vdsokit: make spec's call ("FUNC,PATH,FLAGS,CLOCK":
 * numbers, and the clock's name, "" for the other functions) on its path
 * and the syscall's, and write the answer to fd; -1 where fd could not
 * be written. */
int vk_confirm_probe(const char *spec, const char *impl, int fd);

#endif /* VK_CONFIRM_H */
