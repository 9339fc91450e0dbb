// SPDX-License-Identifier: MIT
/*
 * One guest of `vdsokit vm`, booted to its end: its console logged, a
 * boot that did not count made again, and how it ended judged, for the
 * command to say and to turn into its exit status.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/vm/vm_run.h"

static void note(struct vk_vm_run *run, enum vk_vm_note what)
{
	if (run->note)
		run->note(run->ctx, run, what);
}

int vk_vm_whole(const struct vk_vm_result *r, int ncmds)
{
	for (int k = 0; k < ncmds; k++) {
		if (r->damaged[k])
			return 0;
	}
	/* The guest said it ran them all, but some exit frames never came. */
	return !(r->ended && r->ncmds < ncmds);
}

/* Why a guest that did not run every command ended. */
static enum vk_vm_end no_result(const struct vk_vm_result *r)
{
	if (vk_vm_host_failure(r))
		return VK_VM_END_HOST_FAILED;
	if (r->kvm_stopped)
		return VK_VM_END_KVM_STOPPED;
	if (r->panicked)
		return VK_VM_END_PANICKED;
	if (r->timed_out)
		return VK_VM_END_TIMED_OUT;
	if (!r->started && r->qemu_status && r->qemu_said[0])
		return VK_VM_END_REFUSED;
	return VK_VM_END_NO_RESULT;
}

static enum vk_vm_end judge(const struct vk_vm_result *r, int ncmds)
{
	if (r->started && r->version != VK_VM_FRAMING)
		return VK_VM_END_OLD_FRAMING;
	/* A guest cut short is said as such, whatever it lost on the way. */
	if (!vk_vm_whole(r, ncmds) && (r->ncmds == ncmds || r->ended))
		return VK_VM_END_LOST_OUTPUT;
	return r->ncmds == ncmds ? VK_VM_END_RAN : no_result(r);
}

/* The same guest once more, its console log begun anew. */
static void boot_again(struct vk_vm_run *run, const struct vk_vm *vm, int fd)
{
	vk_vm_result_free(&run->r);
	if (ftruncate(fd, 0) == 0)
		lseek(fd, 0, SEEK_SET);
	vk_vm_boot(vm, run->timeout, 0, run->keep, fd, &run->r);
}

/* Boot, and again where the first boot did not count. */
static void boot(struct vk_vm_run *run, struct vk_vm *vm, int fd)
{
	int probe = vm->kvm && run->fallback;

	vk_vm_boot(vm, run->timeout, probe, run->keep, fd, &run->r);
	if (probe && !run->r.started) {
		note(run, VK_VM_KVM_RETRY);
		vm->kvm = 0;
		boot_again(run, vm, fd);
		if (run->r.started)
			vk_vm_kvm_failed(vm->arch, vm->qemu);
	}
	/* Before /init nothing was relayed, so a second boot repeats nothing. */
	if (!run->r.started && vk_vm_host_failure(&run->r)) {
		note(run, VK_VM_HOST_RETRY);
		boot_again(run, vm, fd);
	}
}

/* The guest measures itself and cannot see a host that kept its vCPUs
 * from running. */
static void disturbed(struct vk_vm_run *run)
{
	run->cpus = sysconf(_SC_NPROCESSORS_ONLN);
	for (int k = 0; k < run->r.ncmds && k < VK_VM_MAX_CMDS; k++)
		run->disturbed[k] = vk_vm_host_disturbed(&run->r.host[k], run->cpus);
}

static int open_log(struct vk_vm_run *run)
{
	const char *tmpdir = getenv("TMPDIR");

	if (run->log[0])
		return open(run->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	snprintf(run->log, sizeof(run->log), "%s/vdsokit-vm-XXXXXX.log",
		 tmpdir && *tmpdir ? tmpdir : "/tmp");
	return mkstemps(run->log, 4);
}

enum vk_vm_end vk_vm_run(struct vk_vm_run *run, struct vk_vm *vm)
{
	int named = run->log[0] != '\0', fd = open_log(run);

	memset(&run->r, 0, sizeof(run->r));
	memset(run->disturbed, 0, sizeof(run->disturbed));
	if (fd < 0) {
		run->err = errno;
		run->end = VK_VM_END_NO_LOG;
	} else {
		note(run, VK_VM_LOGGING);
		boot(run, vm, fd);
		close(fd);
		disturbed(run);
		run->end = judge(&run->r, run->ncmds);
		/* A temporary log nothing needs goes. */
		if (run->end == VK_VM_END_RAN && !named && !run->r.klost)
			unlink(run->log);
	}
	note(run, VK_VM_ENDED);
	return run->end;
}

int vk_vm_use_kvm(int accel, const struct vk_vm *vm, char *why, size_t len)
{
	*why = '\0';
	return accel == VK_ACCEL_KVM ||
	       (accel == VK_ACCEL_AUTO && vk_vm_kvm_possible(vm->arch, vm->qemu, why, len));
}
