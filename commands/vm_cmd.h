/* SPDX-License-Identifier: MIT */
/* What `vdsokit vm`'s two modes share: its options and one guest's run. */
#ifndef VK_VM_CMD_H
#define VK_VM_CMD_H

#include "../core/vm.h"

enum { VK_ACCEL_AUTO, VK_ACCEL_KVM, VK_ACCEL_TCG };
/* Statuses of a guest that gave no result. */
enum { VK_VM_TIMEOUT = 5, VK_VM_PANIC = 6, VK_VM_NO_RESULT = 7 };

struct vk_vm_opts {
	const char *kernel[2];
	int nkernels;
	struct vk_vm_setup setup;
	int accel;
	double timeout;
	unsigned long rounds;
	const char *output;
	int dry_run;
	char **words;		/* the guest's command, or A/B's APIs */
	int nwords;
};

/*
 * Boot vm: under KVM if vm->kvm, falling back to TCG where o->accel is
 * auto and KVM does not reach /init. -1 when all ncmds commands ran
 * (their statuses and, with capture, stdout in r); otherwise a status 5,
 * 6 or 7, said on stderr with the console log kept at log.
 */
int vk_vm_run(const char *cmd, const struct vk_vm_opts *o, struct vk_vm *vm, int ncmds,
	      int capture, char *log, size_t len, struct vk_vm_result *r);
/* --kernel A --kernel B. */
int vk_vm_ab(const char *cmd, const struct vk_vm_opts *o);

#endif /* VK_VM_CMD_H */
