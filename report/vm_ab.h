/* SPDX-License-Identifier: MIT */
/* What `vdsokit vm --kernel A --kernel B` found to differ in kind, printed. */
#ifndef VK_REPORT_VM_AB_H
#define VK_REPORT_VM_AB_H

#include <stdio.h>

#include "core/benchfile/benchfile.h"
#include "core/vm/vm_ab.h"

/* Everything but compare's table, which compare prints itself. */
void vk_report_ab(FILE *f, const struct vk_ab *ab);
/*
 * Under TCG, where compare gives no table: each row a boot's bench failed
 * (its calls failed), which has no figure in its side's file, as compare
 * says it under KVM, of A's runs[0] and B's runs[1]; how many.
 */
size_t vk_report_ab_failed(FILE *f, const struct vk_compare_runs *const runs[2]);

#endif /* VK_REPORT_VM_AB_H */
