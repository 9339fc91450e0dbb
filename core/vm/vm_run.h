/* SPDX-License-Identifier: MIT */
/*
 * One guest of `vdsokit vm` booted to its end (core/vm/vm_run.c): the
 * console logged, a boot that did not count made again (KVM that does not
 * reach /init, under TCG; the host's failure, once more), and how the run
 * ended judged. What it says as it goes, its note hook says.
 */
#ifndef VK_VM_RUN_H
#define VK_VM_RUN_H

#include <limits.h>

#include "core/vm/vm.h"

/* --accel's modes. */
enum { VK_ACCEL_AUTO, VK_ACCEL_KVM, VK_ACCEL_TCG };

/* How a run ended: every command ran (whatever their statuses), or why not. */
enum vk_vm_end {
	VK_VM_END_RAN,
	VK_VM_END_NO_LOG,		/* no console log could be made: errno in err */
	VK_VM_END_OLD_FRAMING,	/* the guest's vdsokit frames in another version */
	VK_VM_END_LOST_OUTPUT,	/* the console lost or damaged a command's output */
	VK_VM_END_HOST_FAILED,	/* the host's failure, twice */
	VK_VM_END_KVM_STOPPED,	/* qemu stopped the guest, as KVM failed to run it */
	VK_VM_END_PANICKED,
	VK_VM_END_TIMED_OUT,
	VK_VM_END_REFUSED,		/* qemu refused to boot the kernel */
	VK_VM_END_NO_RESULT,	/* the guest ended without running the commands */
};

/* What a run tells its note hook: the log is open (its name in log); a
 * boot that did not count is made again, under TCG or as it was; it ended. */
enum vk_vm_note { VK_VM_LOGGING, VK_VM_KVM_RETRY, VK_VM_HOST_RETRY, VK_VM_ENDED };

struct vk_vm_run {
	double timeout;		/* each boot's, in qemu's CPU seconds */
	int fallback;		/* under KVM, boot under TCG where KVM does not reach /init */
	int keep;		/* VK_VM_RELAY... */
	int ncmds;
	/* The console log; "" for a new file named here, removed if all
	 * went well. */
	char log[PATH_MAX];
	void (*note)(void *ctx, const struct vk_vm_run *run, enum vk_vm_note what);
	void *ctx;
	/* What came of it: at a retry's note, the boot that did not count. */
	struct vk_vm_result r;
	enum vk_vm_end end;
	int err;
	/* The commands the host disturbed (vk_vm_host_disturbed()), on cpus. */
	int disturbed[VK_VM_MAX_CMDS];
	long cpus;
};

/* Boot vm (its kvm cleared where KVM fell back) into run->r, judged in
 * run->end; the caller frees run->r. */
enum vk_vm_end vk_vm_run(struct vk_vm_run *run, struct vk_vm *vm);
/* Whether the console delivered every command's output as the guest sent it. */
int vk_vm_whole(const struct vk_vm_result *r, int ncmds);
/* Whether vm boots under KVM with --accel accel: auto asks
 * vk_vm_kvm_possible(), saying why not in why ("" otherwise). */
int vk_vm_use_kvm(int accel, const struct vk_vm *vm, char *why, size_t len);

#endif /* VK_VM_RUN_H */
