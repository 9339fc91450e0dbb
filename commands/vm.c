// SPDX-License-Identifier: MIT
/*
 * vdsokit vm: boot a kernel under qemu with an initramfs whose /init is a
 * static vdsokit, run one vdsokit command in it, relay that command's
 * stdout and stderr as they come, and exit with its status; or, with two
 * kernels, compare them (commands/vm/vm_ab.c). The booting, the retries
 * and the guest's side are core/vm's; this file reads the command line,
 * says what a run tells it, and turns how it ended into an exit status.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/base/array.h"
#include "core/base/children.h"
#include "report/vm.h"
#include "commands/commands.h"
#include "commands/vm_cmd.h"

static const char head[] =
	"Usage: vdsokit vm --kernel IMAGE [options] [-- COMMAND [ARGS...] [-- COMMAND ...]]\n"
	"       vdsokit vm --kernel A --kernel B [options] [--rounds N] [-- API...]\n\n"
	"Boot IMAGE (a kernel you built: bzImage, Image, zImage, vmlinux) under qemu\n"
	"with a static vdsokit as /init, run 'vdsokit COMMAND ARGS' there (default:\n"
	"all; several commands, each after its own --, in one boot), relay its\n"
	"output and exit with its status. With two kernels, boot A and B in turn\n"
	"(A B A B ...) and print what differs in kind (a function, a call sent to\n"
	"the syscall, the clocksource, a verify check) and, under KVM, compare's\n"
	"table. Under TCG every figure is emulated. Details: 'man vdsokit'.\n\n";

static const char tail[] =
	"\n"
	"Exit status: the command's own (0, 1, 2, 4; the highest of several); with\n"
	"two kernels 1 where B regresses in kind or is significantly slower; 2 bad\n"
	"input; 5 timed out, 6 the kernel panicked, 7 no result, 8 the console lost\n"
	"output, 9 the boot failed for the host's reason (twice, or KVM's error);\n"
	"with --bisect, 125 (skip) instead of 5-9, and of 2 for a missing kernel\n"
	"or one qemu refuses.\n";

/* With --output: each command's output in DIR/COMMAND.log (a repeated
 * command's in COMMAND.2.log ...), its status in DIR/COMMAND.status. */
static int write_logs(const struct vk_vm_opts *o, const struct vk_vm_result *r)
{
	static struct vk_files s;
	const char *names[VK_VM_MAX_CMDS];
	char path[PATH_MAX], name[64];
	int n = 0;

	/* Each command's first word: after the start, or after an empty one. */
	for (int i = 0; i < o->nwords && n < VK_VM_MAX_CMDS; i++) {
		if (o->words[i][0] && (i == 0 || !o->words[i - 1][0]))
			names[n++] = o->words[i];
	}
	for (int k = 0; k < r->ncmds && k < n; k++) {
		int same = 0;
		FILE *f;

		for (int j = 0; j < k; j++)
			same += !strcmp(names[j], names[k]);
		snprintf(name, sizeof(name), same ? "%s.%d" : "%s", names[k], same + 1);
		snprintf(path, sizeof(path), "%s/%s.log", o->output, name);
		if (!(f = vk_files_open(&s, path)))
			goto fail;
		fwrite(r->out[k] ? r->out[k] : "", 1, r->outlen[k], f);
		vk_files_flush(&s);
		snprintf(path, sizeof(path), "%s/%s.status", o->output, name);
		if (!(f = vk_files_open(&s, path)))
			goto fail;
		fprintf(f, "%d\n", r->status[k]);
	}
	return vk_files_commit(&s) ? -1 : 0;
fail:
	vk_files_drop(&s);
	return -1;
}

static void print_argv(const struct vk_vm *vm)
{
	char *argv[VK_VM_ARGV], buf[2048];

	vk_vm_argv(vm, argv, buf, sizeof(buf));
	for (int i = 0; argv[i]; i++)
		printf("%s%s", i ? " " : "", argv[i]);
	printf("\n");
}

/* What a run says as it goes: a signal keeps the log, named. */
static void said(void *ctx, const struct vk_vm_run *run, enum vk_vm_note what)
{
	static char msg[PATH_MAX + 128];

	(void)ctx;
	if (what == VK_VM_LOGGING) {
		snprintf(msg, sizeof(msg), "%s: interrupted; the console log is kept in %s\n",
			 vk_progname, run->log);
		vk_children_say(msg);
	} else if (what == VK_VM_ENDED) {
		vk_report_vm_end(stderr, vk_progname, run);
		vk_children_say(NULL);
	} else {
		vk_report_vm_retry(stderr, vk_progname, run, what);
	}
}

void vk_vm_run_opts(struct vk_vm_run *run, const struct vk_vm_opts *o, int keep)
{
	*run = (struct vk_vm_run){ .timeout = o->timeout, .fallback = o->accel == VK_ACCEL_AUTO,
				   .keep = keep, .note = said };
}

int vk_vm_status(const struct vk_vm_opts *o, enum vk_vm_end end)
{
	static const int status[] = {
		[VK_VM_END_RAN] = VK_EXIT_OK, [VK_VM_END_NO_LOG] = VK_EXIT_USAGE,
		[VK_VM_END_OLD_FRAMING] = VK_EXIT_USAGE, [VK_VM_END_LOST_OUTPUT] = VK_VM_LOST,
		[VK_VM_END_HOST_FAILED] = VK_VM_HOST, [VK_VM_END_KVM_STOPPED] = VK_VM_HOST,
		[VK_VM_END_PANICKED] = VK_VM_PANIC, [VK_VM_END_TIMED_OUT] = VK_VM_TIMEOUT,
		[VK_VM_END_REFUSED] = VK_EXIT_USAGE, [VK_VM_END_NO_RESULT] = VK_VM_NO_RESULT,
	};

	/* Bad input, but of the kernel's own making: a commit to skip. */
	if (end == VK_VM_END_REFUSED && o->bisect)
		return VK_VM_BISECT_SKIP;
	return status[end];
}

static int one(struct vk_vm_opts *o, int ncmds)
{
	char err[1024], qemu[PATH_MAX], initrd[PATH_MAX];
	static struct vk_vm_files files;
	static struct vk_vm_run run;
	struct vk_vm vm;
	int status;

	if (ncmds < 0)
		return vk_usage_error("the commands after -- are empty, vm, or more than %d",
				      VK_VM_MAX_CMDS);
	if (vk_vm_impl_files(o->words, o->nwords, &files, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", vk_progname, err);
		return VK_EXIT_USAGE;
	}
	if (files.n && o->setup.binary)
		return vk_usage_error("--binary and a guest command's --impl: --impl runs "
				      "this dynamic vdsokit in the guest");
	o->setup.files = files.n ? &files : NULL;

	if (vk_vm_prepare(&vm, o->kernel[0], &o->setup, o->words, o->nwords, qemu, initrd,
			  PATH_MAX, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", vk_progname, err);
		return VK_EXIT_USAGE;
	}
	vk_report_vm_smp(stderr, vk_progname, &vm, o->setup.smp);
	vm.kvm = vk_vm_use_kvm(o->accel, &vm, err, sizeof(err));
	if (*err)
		fprintf(stderr, "%s: %s\n", vk_progname, err);
	if (o->dry_run) {
		print_argv(&vm);
		/* auto's KVM is tried, not known: TCG is what runs if it fails. */
		if (vm.kvm && o->accel == VK_ACCEL_AUTO) {
			fprintf(stderr, "%s: --accel auto: the first line boots under KVM; if KVM does not reach /init within %d s, the second boots under TCG\n",
				vk_progname, VK_VM_PROBE_SECONDS);
			vm.kvm = 0;
			print_argv(&vm);
		}
		return VK_EXIT_OK;
	}
	vk_vm_run_opts(&run, o, o->output ? VK_VM_KEEP_ALL : VK_VM_RELAY);
	run.ncmds = ncmds;
	if (o->output)
		snprintf(run.log, sizeof(run.log), "%s/console.log", o->output);
	if (!vm.kvm)
		fprintf(stderr, "%s: %s under TCG (emulated): figures are not the hardware's\n", vk_progname,
			vm.arch->name);
	status = vk_vm_status(o, vk_vm_run(&run, &vm));
	/* A guest cut short still leaves the logs of what it finished. */
	if (o->output && write_logs(o, &run.r) && status == VK_EXIT_OK)
		status = VK_EXIT_USAGE;
	else if (status == VK_EXIT_OK) {
		for (int k = 0; k < run.r.ncmds; k++) {
			if (run.r.status[k] > status)
				status = run.r.status[k];
		}
	}
	vk_vm_result_free(&run.r);
	return status;
}

static enum vk_opt_result add_kernel(const char *arg, void *opts)
{
	struct vk_vm_opts *o = opts;

	if (o->nkernels == 2)
		return vk_opt_error("--kernel is given at most twice");
	o->kernel[o->nkernels++] = arg;
	return VK_OPT_OK;
}

static enum vk_opt_result add_qemu_arg(const char *arg, void *board)
{
	struct vk_vm_board *b = board;

	if (b->nargs == VK_VM_MAX_QEMU_ARGS)
		return vk_opt_error("--qemu-arg is given at most %d times", VK_VM_MAX_QEMU_ARGS);
	b->args[b->nargs++] = arg;
	return VK_OPT_OK;
}

static enum vk_opt_result parse_accel(const char *arg, void *accel)
{
	static const char *const names[] = {
		[VK_ACCEL_AUTO] = "auto", [VK_ACCEL_KVM] = "kvm", [VK_ACCEL_TCG] = "tcg",
	};

	for (int i = 0; i < (int)ARRAY_SIZE(names); i++) {
		if (!strcmp(arg, names[i])) {
			*(int *)accel = i;
			return VK_OPT_OK;
		}
	}
	return vk_opt_error("--accel: '%s' is not auto, kvm or tcg", arg);
}

static enum vk_opt_result parse_opts(int argc, char **argv, struct vk_vm_opts *o)
{
	unsigned long long smp = o->setup.smp, memory = o->setup.memory, timeout = o->timeout,
			   rounds = o->rounds, command_timeout = 0;
	const struct vk_option opt[] = {
		VK_OPT('k', "kernel", VK_OPT_CALL, "IMAGE",
		       "the kernel image to boot (twice: A and B)", o, .call = add_kernel),
		VK_OPT('a', "arch", VK_OPT_STRING, "ARCH",
		       "its architecture, where its header does not say\n"
		       "(x86_64, i386, arm64, armhf, ppc64le, s390x, ...)", &o->setup.arch),
		VK_OPT(0, "machine", VK_OPT_STRING, "BOARD",
		       "qemu's machine instead of the arch's, e.g. vexpress-a9",
		       &o->setup.board.machine),
		VK_OPT(0, "qemu-cpu", VK_OPT_STRING, "CPU",
		       "qemu's CPU instead of the arch's, e.g. cortex-a9",
		       &o->setup.board.cpu),
		VK_OPT(0, "dtb", VK_OPT_STRING, "FILE", "the device tree qemu gives the kernel",
		       &o->setup.board.dtb),
		VK_OPT(0, "qemu-arg", VK_OPT_CALL, "ARG",
		       "one more word for qemu's command line (at most 8)",
		       &o->setup.board, .call = add_qemu_arg),
		VK_OPT(0, "accel", VK_OPT_CALL, "MODE",
		       "auto (default: KVM where it boots, else TCG), kvm, tcg",
		       &o->accel, .call = parse_accel),
		VK_OPT(0, "smp", VK_OPT_COUNT, "N", "virtual CPUs (default 2; at most the board's)",
		       &smp, .lo = 1,
		       .hi = 64),
		VK_OPT('m', "memory", VK_OPT_COUNT, "MIB", "guest memory in MiB (default 1024)",
		       &memory, .lo = 64, .hi = 65536),
		VK_OPT(0, "append", VK_OPT_STRING, "ARGS",
		       "more kernel command line", &o->setup.append),
		VK_OPT('t', "timeout", VK_OPT_COUNT, "SEC",
		       "each boot's limit in qemu's CPU seconds (default 900)",
		       &timeout, .lo = 1, .hi = 86400),
		VK_OPT('b', "binary", VK_OPT_STRING, "FILE",
		       "the static vdsokit to run (default: cross/ARCH/vdsokit)",
		       &o->setup.binary),
		VK_OPT(0, "command-timeout", VK_OPT_COUNT, "SEC",
		       "each command's limit in the guest (then exit 124)",
		       &command_timeout, .lo = 1, .hi = 86400),
		VK_OPT(0, "rounds", VK_OPT_COUNT, "N", "with two kernels: boots of each (default 3)",
		       &rounds, .lo = 1, .hi = 100),
		VK_OPT('o', "output", VK_OPT_CALL, "DIR",
		       "keep the commands' output, statuses and console in\n"
		       "DIR instead of relaying them (two kernels: bench files)",
		       &o->output, .call = vk_output_dir),
		VK_OPT(0, "dry-run", VK_OPT_FLAG, NULL, "print the qemu command line and exit",
		       &o->dry_run),
		VK_OPT(0, "bisect", VK_OPT_FLAG, NULL,
		       "for git bisect run: exit 125 (skip) where the last\n"
		       "--kernel cannot be tested", &o->bisect),
		VK_OPT_HELP_ROW,
	};
	struct vk_options opts = VK_OPTIONS(head, tail, opt);
	enum vk_opt_result r;

	opts.stop = 1;	/* what follows the first operand is the guest's */
	r = vk_options_parse(&opts, argc, argv);

	o->setup.smp = smp;
	o->setup.memory = memory;
	o->timeout = timeout;
	o->rounds = rounds;
	o->setup.command_timeout = command_timeout;
	return r;
}

/* --bisect: the kernel under test, the last --kernel, missing or no
 * kernel image, as a failed build leaves it: a commit git bisect skips. */
static int untestable_image(const struct vk_vm_opts *o)
{
	char err[PATH_MAX + 128];

	if (!vk_vm_testable(o->kernel[o->nkernels - 1], o->setup.arch != NULL, err, sizeof(err)))
		return 0;
	fprintf(stderr, "%s: %s; --bisect: exit %d, git bisect run's skip\n", vk_progname, err,
		VK_VM_BISECT_SKIP);
	return 1;
}

/* --bisect: a guest that gave no result (5 to 9) is a kernel not tested. */
static int bisect_status(int status)
{
	if (status < VK_VM_TIMEOUT || status > VK_VM_HOST)
		return status;
	fprintf(stderr, "%s: --bisect: exit %d, git bisect run's skip, for %d\n", vk_progname,
		VK_VM_BISECT_SKIP, status);
	return VK_VM_BISECT_SKIP;
}

int cmd_vm(int argc, char **argv)
{
	static char *all[] = { "all", NULL };
	struct vk_vm_opts o = { .setup = { .smp = 2, .memory = 1024 }, .timeout = 900, .rounds = 3 };
	enum vk_opt_result r = parse_opts(argc, argv, &o);
	int status;

	if (r != VK_OPT_OK)
		return vk_opt_exit(r);
	if (!o.nkernels)
		return vk_usage_error("--kernel IMAGE is required");
	if (o.bisect && untestable_image(&o))
		return VK_VM_BISECT_SKIP;
	o.words = argv + optind;
	o.nwords = argc - optind;
	/* One kernel's guest runs the main job unless told otherwise. */
	if (o.nkernels == 1 && !o.nwords) {
		o.words = all;
		o.nwords = 1;
	}
	status = o.nkernels == 2 ? vk_vm_ab(&o) : one(&o, vk_vm_split_commands(o.words, o.nwords));
	return o.bisect ? bisect_status(status) : status;
}
