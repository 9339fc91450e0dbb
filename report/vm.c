// SPDX-License-Identifier: MIT
/*
 * What `vdsokit vm` says about a guest's run on its stream of messages:
 * a boot made again, the host's disturbance, and why a guest gave no
 * result, each with the console log's name.
 */
#include <string.h>

#include "report/vm.h"

void vk_report_vm_retry(FILE *f, const char *prog, const struct vk_vm_run *run,
			enum vk_vm_note what)
{
	const struct vk_vm_result *r = &run->r;

	if (what == VK_VM_HOST_RETRY) {
		fprintf(f, "%s: the boot failed for a reason of this host, not of the kernel: %s; booting again\n",
			prog, vk_vm_host_failure(r));
		return;
	}
	/* qemu's own words, as --accel kvm would say them. */
	if (r->timed_out)
		fprintf(f, "%s: KVM did not reach /init (no sign of it within %d s)", prog,
			VK_VM_PROBE_SECONDS);
	else if (r->qemu_said[0])
		fprintf(f, "%s: KVM did not reach /init (%s)", prog, r->qemu_said);
	else
		fprintf(f, "%s: KVM did not reach /init (qemu ended with status %d, saying nothing)",
			prog, r->qemu_status);
	fprintf(f, "; booting again under TCG, whose figures are emulated\n");
}

/* Each command the host disturbed, which the guest could not see. */
static void host(FILE *f, const char *prog, const struct vk_vm_run *run)
{
	char waited[64];

	for (int k = 0; k < run->r.ncmds && k < VK_VM_MAX_CMDS; k++) {
		const struct vk_vm_host *h = &run->r.host[k];

		if (!run->disturbed[k])
			continue;
		if (h->waited >= 0)
			snprintf(waited, sizeof(waited), "qemu's most delayed thread waited %.1f s",
				 h->waited);
		else
			snprintf(waited, sizeof(waited), "how long qemu waited is unknown");
		fprintf(f, "%s: warning: the host disturbed the guest's command %d: load %.2f on %ld CPUs, %s for a CPU in its %.1f s; the guest cannot see it, and its figures may read slower than the kernel is: repeat on a quieter host\n",
			prog, k + 1, h->load, run->cpus, waited, h->wall);
	}
}

/* What was lost, and each command whose output came short or damaged. */
static void lost_output(FILE *f, const char *prog, const struct vk_vm_run *run)
{
	const struct vk_vm_result *r = &run->r;
	char which[256] = "", what[128] = "";
	size_t n = 0, m = 0;

	for (int k = 0; k < run->ncmds && n < sizeof(which); k++) {
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
	fprintf(f, "%s: the console lost or damaged the guest's output: %s; the output of command %s is incomplete, whatever its status; console log: %s\n",
		prog, what, which, run->log);
}

/* Why the guest gave no result, or not all of it. */
static void no_result(FILE *f, const char *prog, const struct vk_vm_run *run)
{
	const struct vk_vm_result *r = &run->r;
	const char *log = run->log;

	switch (run->end) {
	case VK_VM_END_RAN:
		break;
	case VK_VM_END_NO_LOG:
		fprintf(f, "%s: cannot make a console log in %s: %s\n", prog, log, strerror(run->err));
		break;
	case VK_VM_END_OLD_FRAMING:
		fprintf(f, "%s: the guest's vdsokit frames its output in version %d, this one reads %d: give --binary a vdsokit of this version; console log: %s\n",
			prog, r->version, VK_VM_FRAMING, log);
		break;
	case VK_VM_END_LOST_OUTPUT:
		lost_output(f, prog, run);
		break;
	case VK_VM_END_HOST_FAILED:
		fprintf(f, "%s: the boot failed twice for a reason of this host, not of the kernel: %s (the kernel said: %s); console log: %s\n",
			prog, vk_vm_host_failure(r), r->panic, log);
		break;
	case VK_VM_END_KVM_STOPPED:
		fprintf(f, "%s: qemu stopped the guest, as KVM failed to run it: %s (this host's KVM, not the kernel: --accel tcg boots it emulated); console log: %s\n",
			prog, r->qemu_said, log);
		break;
	case VK_VM_END_PANICKED:
		fprintf(f, "%s: the kernel panicked before the command ended; console log: %s\n", prog, log);
		break;
	case VK_VM_END_TIMED_OUT:
		fprintf(f, "%s: timed out after %g s of running (or %d times that on the clock)%s; console log: %s\n",
			prog, run->timeout, VK_VM_BACKSTOP, r->started ? " (the command was running)" :
				     " (the kernel never reached /init: no initramfs support, or no console on the serial port?)",
			log);
		break;
	case VK_VM_END_REFUSED:
		fprintf(f, "%s: qemu refused to boot the kernel: %s; console log: %s\n", prog, r->qemu_said,
			log);
		break;
	case VK_VM_END_NO_RESULT:
		fprintf(f, "%s: the guest ended without running the command (%s, qemu status %d); console log: %s\n",
			prog, r->started ? "after /init started" : "/init never started", r->qemu_status, log);
		break;
	}
}

void vk_report_vm_end(FILE *f, const char *prog, const struct vk_vm_run *run)
{
	host(f, prog, run);
	if (run->end != VK_VM_END_OLD_FRAMING && run->end != VK_VM_END_NO_LOG && run->r.klost)
		fprintf(f, "%s: the console lost %lu of the guest kernel's messages (the commands' output is not concerned); console log: %s\n",
			prog, run->r.klost, run->log);
	no_result(f, prog, run);
}

void vk_report_vm_smp(FILE *f, const char *prog, const struct vk_vm *vm, unsigned long smp)
{
	const char *cpu = vk_vm_qemu_opt(vm->arch, &vm->board, "-cpu");

	if (vm->smp < smp)
		fprintf(f, "%s: --smp %lu: qemu's %s runs %lu CPU with the %s core; booting %lu\n", prog,
			smp, vk_vm_qemu_opt(vm->arch, &vm->board, "-M"), vm->smp, cpu ? cpu : "default",
			vm->smp);
}
