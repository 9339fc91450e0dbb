/* SPDX-License-Identifier: MIT */
/* What `vdsokit vm` says on its stream of messages about a guest's run. */
#ifndef VK_REPORT_VM_H
#define VK_REPORT_VM_H

#include <stdio.h>

#include "core/vm/vm_run.h"

/* Each line starts with prog, the program's name. */
/* A boot that did not count, before it is made again (what: a retry's note). */
void vk_report_vm_retry(FILE *f, const char *prog, const struct vk_vm_run *run,
			enum vk_vm_note what);
/* The run's end: the commands the host disturbed, kernel messages lost,
 * and why it gave no result, if it did not; with the console log's name. */
void vk_report_vm_end(FILE *f, const char *prog, const struct vk_vm_run *run);
/* Where vm boots fewer CPUs than the smp asked for: its board runs no more. */
void vk_report_vm_smp(FILE *f, const char *prog, const struct vk_vm *vm, unsigned long smp);

#endif /* VK_REPORT_VM_H */
