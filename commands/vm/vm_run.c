// SPDX-License-Identifier: MIT
/* One guest of `vdsokit vm`, booted to its end, and what to say if it gave no result. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/children.h"
#include "commands/commands.h"
#include "commands/vm_cmd.h"

static int no_result(const struct vk_vm_result *r, const struct vk_vm_opts *o,
		     const char *log)
{
	if (vk_vm_host_failure(r)) {
		fprintf(stderr, "%s: the boot failed twice for a reason of this host, not of the kernel: %s (the kernel said: %s); console log: %s\n",
			vk_progname, vk_vm_host_failure(r), r->panic, log);
		return VK_VM_HOST;
	}
	if (r->kvm_stopped) {
		fprintf(stderr, "%s: qemu stopped the guest, as KVM failed to run it: %s (this host's KVM, not the kernel: --accel tcg boots it emulated); console log: %s\n",
			vk_progname, r->qemu_said, log);
		return VK_VM_HOST;
	}
	if (r->panicked) {
		fprintf(stderr, "%s: the kernel panicked before the command ended; console log: %s\n",
			vk_progname, log);
		return VK_VM_PANIC;
	}
	if (r->timed_out) {
		fprintf(stderr, "%s: timed out after %g s of running (or %d times that on the clock)%s; console log: %s\n",
			vk_progname, o->timeout, VK_VM_BACKSTOP, r->started ? " (the command was running)" :
				     " (the kernel never reached /init: no initramfs support, or no console on the serial port?)",
			log);
		return VK_VM_TIMEOUT;
	}
	if (!r->started && r->qemu_status && r->qemu_said[0]) {
		fprintf(stderr, "%s: qemu refused to boot the kernel: %s; console log: %s\n", vk_progname,
			r->qemu_said, log);
		/* Bad input, but of the kernel's own making: a commit to skip. */
		return o->bisect ? VK_VM_BISECT_SKIP : VK_EXIT_USAGE;
	}
	fprintf(stderr, "%s: the guest ended without running the command (%s, qemu status %d); console log: %s\n",
		vk_progname, r->started ? "after /init started" : "/init never started", r->qemu_status, log);
	return VK_VM_NO_RESULT;
}

/* Whether the console delivered every command's output as the guest
 * sent it; a frame lost after the last command's exit harms none. */
static int whole(const struct vk_vm_result *r, int ncmds)
{
	for (int k = 0; k < ncmds; k++) {
		if (r->damaged[k])
			return 0;
	}
	/* The guest said it ran them all, but some exit frames never came. */
	return !(r->ended && r->ncmds < ncmds);
}

/* What was lost, and each command whose output came short or damaged. */
static int lost_output(const struct vk_vm_result *r, int ncmds, const char *log)
{
	char which[256] = "", what[128] = "";
	size_t n = 0, m = 0;

	for (int k = 0; k < ncmds && n < sizeof(which); k++) {
		if (k < r->ncmds && !r->damaged[k])
			continue;
		n += snprintf(which + n, sizeof(which) - n, "%s%d%s", n ? ", " : "", k + 1,
			      k >= r->ncmds ? " (no exit status)" :
			      r->status[k] < 0 ? " (its exit status lost)" : "");
	}
	if (r->lost)
		m += snprintf(what, sizeof(what), "%lu frame%s missing (from #%lu)", r->lost,
			      r->lost > 1 ? "s" : "", r->first_lost);
	if (r->bad)
		m += snprintf(what + m, sizeof(what) - m, "%s%lu frame%s unreadable", m ? ", " : "",
			      r->bad, r->bad > 1 ? "s" : "");
	if (!m)
		snprintf(what, sizeof(what), "an output's length or checksum is not what was sent");
	fprintf(stderr, "%s: the console lost or damaged the guest's output: %s; the output of command %s is incomplete, whatever its status; console log: %s\n",
		vk_progname, what, which, log);
	return VK_VM_LOST;
}

/* The same guest once more, its console log begun anew. */
static void boot_again(const struct vk_vm *vm, const struct vk_vm_opts *o, int keep, int fd,
		       struct vk_vm_result *r)
{
	vk_vm_result_free(r);
	if (ftruncate(fd, 0) == 0)
		lseek(fd, 0, SEEK_SET);
	vk_vm_boot(vm, o->timeout, 0, keep, fd, r);
}

void vk_vm_say_smp(const struct vk_vm_opts *o, const struct vk_vm *vm)
{
	const char *cpu = vk_vm_qemu_opt(vm->arch, &vm->board, "-cpu");

	if (vm->smp < o->setup.smp)
		fprintf(stderr, "%s: --smp %lu: qemu's %s runs %lu CPU with the %s core; booting %lu\n",
			vk_progname, o->setup.smp, vk_vm_qemu_opt(vm->arch, &vm->board, "-M"), vm->smp,
			cpu ? cpu : "default", vm->smp);
}

/* Boot, and again where the first boot did not count; the log closed. */
static void boot_logged(const struct vk_vm_opts *o, struct vk_vm *vm, int keep,
			int fd, struct vk_vm_result *r)
{
	int probe = vm->kvm && o->accel == VK_ACCEL_AUTO;

	vk_vm_boot(vm, o->timeout, probe, keep, fd, r);
	if (probe && !r->started) {
		/* qemu's own words, as --accel kvm would say them. */
		if (r->timed_out)
			fprintf(stderr, "%s: KVM did not reach /init (no sign of it within %d s)", vk_progname,
				VK_VM_PROBE_SECONDS);
		else if (r->qemu_said[0])
			fprintf(stderr, "%s: KVM did not reach /init (%s)", vk_progname, r->qemu_said);
		else
			fprintf(stderr, "%s: KVM did not reach /init (qemu ended with status %d, saying nothing)",
				vk_progname, r->qemu_status);
		fprintf(stderr, "; booting again under TCG, whose figures are emulated\n");
		vm->kvm = 0;
		boot_again(vm, o, keep, fd, r);
		if (r->started)
			vk_vm_kvm_failed(vm->arch, vm->qemu);
	}
	/* Before /init nothing was relayed, so a second boot repeats nothing. */
	if (!r->started && vk_vm_host_failure(r)) {
		fprintf(stderr, "%s: the boot failed for a reason of this host, not of the kernel: %s; booting again\n",
			vk_progname, vk_vm_host_failure(r));
		boot_again(vm, o, keep, fd, r);
	}
	close(fd);
}

/* The status of the boot, the log removed if it was a temporary that
 * nothing needs, and named otherwise. */
static int judged(const struct vk_vm_opts *o, int ncmds, int named,
		  const char *log, const struct vk_vm_result *r)
{
	if (r->started && r->version != VK_VM_FRAMING) {
		fprintf(stderr, "%s: the guest's vdsokit frames its output in version %d, this one reads %d: give --binary a vdsokit of this version; console log: %s\n",
			vk_progname, r->version, VK_VM_FRAMING, log);
		return VK_EXIT_USAGE;
	}
	if (r->klost)
		fprintf(stderr, "%s: the console lost %lu of the guest kernel's messages (the commands' output is not concerned); console log: %s\n",
			vk_progname, r->klost, log);
	/* A guest cut short is said as such, whatever it lost on the way. */
	if (!whole(r, ncmds) && (r->ncmds == ncmds || r->ended))
		return lost_output(r, ncmds, log);
	if (r->ncmds == ncmds) {
		if (!named && !r->klost)
			unlink(log);
		return VK_EXIT_OK;
	}
	return no_result(r, o, log);
}

/* The guest measures itself and cannot see a host that kept its vCPUs
 * from running: said for each command the host disturbed. */
static void say_host(const struct vk_vm_result *r)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	char waited[64];

	for (int k = 0; k < r->ncmds && k < VK_VM_MAX_CMDS; k++) {
		const struct vk_vm_host *h = &r->host[k];

		if (!vk_vm_host_disturbed(h, cpus))
			continue;
		if (h->waited >= 0)
			snprintf(waited, sizeof(waited), "qemu's most delayed thread waited %.1f s",
				 h->waited);
		else
			snprintf(waited, sizeof(waited), "how long qemu waited is unknown");
		fprintf(stderr, "%s: warning: the host disturbed the guest's command %d: load %.2f on %ld CPUs, %s for a CPU in its %.1f s; the guest cannot see it, and its figures may read slower than the kernel is: repeat on a quieter host\n",
			vk_progname, k + 1, h->load, cpus, waited, h->wall);
	}
}

int vk_vm_run(const struct vk_vm_opts *o, struct vk_vm *vm, int ncmds,
	      int keep, char *log, size_t len, struct vk_vm_result *r)
{
	static char said[PATH_MAX + 128];
	const char *tmpdir = getenv("TMPDIR");
	int fd, status, named = log[0] != '\0';

	memset(r, 0, sizeof(*r));
	if (named) {
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	} else {
		snprintf(log, len, "%s/vdsokit-vm-XXXXXX.log", tmpdir && *tmpdir ? tmpdir : "/tmp");
		fd = mkstemps(log, 4);
	}
	if (fd < 0) {
		fprintf(stderr, "%s: cannot make a console log in %s: %s\n", vk_progname, log,
			strerror(errno));
		return VK_EXIT_USAGE;
	}
	/* The log is what the guest did until then: a signal keeps it, named. */
	snprintf(said, sizeof(said), "%s: interrupted; the console log is kept in %s\n", vk_progname, log);
	vk_children_say(said);
	boot_logged(o, vm, keep, fd, r);
	say_host(r);
	status = judged(o, ncmds, named, log, r);
	vk_children_say(NULL);
	return status;
}
