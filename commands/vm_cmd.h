/* SPDX-License-Identifier: MIT */
/* What `vdsokit vm`'s parts share: its options, a guest's run said, its exit statuses. */
#ifndef VK_VM_CMD_H
#define VK_VM_CMD_H

#include "core/vm/vm_run.h"

/* Statuses of a guest that gave no result, or not all of it: timed out,
 * panicked, ended early, output lost on the console, the host's doing. */
enum { VK_VM_TIMEOUT = 5, VK_VM_PANIC = 6, VK_VM_NO_RESULT = 7, VK_VM_LOST = 8, VK_VM_HOST = 9 };
/* --bisect's status for a kernel that could not be tested: git bisect
 * run's "skip", where 1 to 127 else mean "bad". */
enum { VK_VM_BISECT_SKIP = 125 };

struct vk_vm_opts {
	const char *kernel[2];
	int nkernels;
	struct vk_vm_setup setup;
	int accel;
	double timeout;
	unsigned long rounds;
	const char *output;	/* A/B's bench files; one kernel's command logs */
	int dry_run;
	int bisect;		/* an untestable kernel exits VK_VM_BISECT_SKIP */
	char **words;		/* the guest's command, or A/B's APIs */
	int nwords;
};

/* run set for o's boots, keeping output so (VK_VM_RELAY...): what
 * happens is said on stderr as it happens. */
void vk_vm_run_opts(struct vk_vm_run *run, const struct vk_vm_opts *o, int keep);
/* The exit status of a run that ended so. */
int vk_vm_status(const struct vk_vm_opts *o, enum vk_vm_end end);
/* --kernel A --kernel B. */
int vk_vm_ab(const struct vk_vm_opts *o);

#endif /* VK_VM_CMD_H */
