/* SPDX-License-Identifier: MIT */
/* What `vdsokit vm`'s parts share: its options, one guest's run, the guest's /init. */
#ifndef VK_VM_CMD_H
#define VK_VM_CMD_H

#include "core/vm/vm.h"

enum { VK_ACCEL_AUTO, VK_ACCEL_KVM, VK_ACCEL_TCG };
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

/*
 * Boot vm: under KVM if vm->kvm, falling back to TCG where o->accel is
 * auto and KVM does not reach /init. keep is a VK_VM_RELAY... The console
 * log goes to log, or where log is "" to a new file it names, removed if
 * all went well. VK_EXIT_OK when all ncmds commands ran, whatever their
 * statuses (those and what was kept are in r); otherwise a status from 5
 * to 9, said on stderr with the console log's name.
 */
int vk_vm_run(const struct vk_vm_opts *o, struct vk_vm *vm, int ncmds,
	      int keep, char *log, size_t len, struct vk_vm_result *r);
/* Say where vm boots fewer CPUs than --smp asked for: its board runs no more. */
void vk_vm_say_smp(const struct vk_vm_opts *o, const struct vk_vm *vm);
/* --kernel A --kernel B. */
int vk_vm_ab(const struct vk_vm_opts *o);

#endif /* VK_VM_CMD_H */
