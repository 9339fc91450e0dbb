// SPDX-License-Identifier: MIT
/* One guest of `vdsokit vm`, booted to its end, and what to say if it gave no result. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "vm_cmd.h"

static int no_result(const char *cmd, const struct vk_vm_result *r, double timeout,
		     const char *log)
{
	if (r->panicked) {
		fprintf(stderr, "%s: the kernel panicked before the command ended; console log: %s\n",
			cmd, log);
		return VK_VM_PANIC;
	}
	if (r->timed_out) {
		fprintf(stderr, "%s: timed out after %g s%s; console log: %s\n", cmd, timeout,
			r->started ? " (the command was running)" :
				     " (the kernel never reached /init: no initramfs support, or no console on the serial port?)",
			log);
		return VK_VM_TIMEOUT;
	}
	fprintf(stderr, "%s: the guest ended without running the command (%s, qemu status %d); console log: %s\n",
		cmd, r->started ? "after /init started" : "/init never started", r->qemu_status, log);
	return VK_VM_NO_RESULT;
}

int vk_vm_run(const char *cmd, const struct vk_vm_opts *o, struct vk_vm *vm, int ncmds,
	      int keep, char *log, size_t len, struct vk_vm_result *r)
{
	const char *tmpdir = getenv("TMPDIR");
	int fd, probe = vm->kvm && o->accel == VK_ACCEL_AUTO, named = log[0] != '\0';

	memset(r, 0, sizeof(*r));
	if (named) {
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	} else {
		snprintf(log, len, "%s/vdsokit-vm-XXXXXX.log", tmpdir && *tmpdir ? tmpdir : "/tmp");
		fd = mkstemps(log, 4);
	}
	if (fd < 0) {
		fprintf(stderr, "%s: cannot make a console log in %s: %s\n", cmd, log,
			strerror(errno));
		return VK_EXIT_USAGE;
	}
	vk_vm_boot(vm, o->timeout, probe, keep, fd, r);
	if (probe && !r->started) {
		fprintf(stderr, "%s: KVM did not reach /init (%s); booting again under TCG, whose figures are emulated\n",
			cmd, r->timed_out ? "no sign of it within 30 s" : "qemu failed");
		vk_vm_result_free(r);
		vm->kvm = 0;
		if (ftruncate(fd, 0) == 0)
			lseek(fd, 0, SEEK_SET);
		vk_vm_boot(vm, o->timeout, 0, keep, fd, r);
	}
	close(fd);
	if (r->ncmds == ncmds) {
		if (!named)
			unlink(log);
		return -1;
	}
	return no_result(cmd, r, o->timeout, log);
}
