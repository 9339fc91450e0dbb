/* SPDX-License-Identifier: MIT */
/*
 * What `vdsokit vm` needs to boot a kernel: the architecture a kernel
 * image is for, read from its own header; how qemu boots each one; and
 * an initramfs (newc cpio) holding a static vdsokit as /init.
 */
#ifndef VK_VM_H
#define VK_VM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* qemu words of an arch's machine: up to three options and their values. */
#define VK_VM_MACHINE_WORDS 6

struct vk_vm_arch {
	const char *name;		/* as `make cross ARCH=` names it */
	const char *qemu;		/* qemu-system-* */
	const char *package;		/* Debian's package for it */
	const char *machine[VK_VM_MACHINE_WORDS];	/* -M and -cpu under TCG */
	const char *console;
	/* What its clocks need (x86: tsc), and what a slow emulator needs:
	 * x86's boot-time timer check panics when qemu runs slowly. */
	const char *append;
	uint16_t elf_machine;		/* of its userspace binaries */
	int is64;
	int big_endian;
	const char *host;		/* uname -m where KVM could run it, or NULL */
	const char *compat;		/* the 32-bit userspace its kernel also runs */
};

const struct vk_vm_arch *vk_vm_arch_find(const char *name);
/* Every row, for messages: "arm64, armhf, ...". */
void vk_vm_arch_names(char *buf, size_t len);

/* The architecture of the kernel image at path: 0 and *arch, or -1 and
 * why in err (unreadable, or no header that names an architecture). */
int vk_vm_kernel_arch(const char *path, const struct vk_vm_arch **arch, char *err,
		      size_t len);
/* Whether kernel can be tested, as a failed build leaves it missing or
 * empty: with arch_given, a file with bytes; else one whose header names
 * its arch. 0, or -1 and why in err. */
int vk_vm_testable(const char *kernel, int arch_given, char *err, size_t len);
/* Whether the ELF file at path is an executable that arch's kernel runs
 * (its own, or its compat ABI's), and a static one unless dynamic is set:
 * 0, or -1 and why in err. */
int vk_vm_check_binary(const char *path, const struct vk_vm_arch *arch, int dynamic,
		       char *err, size_t len);

/*
 * What a dynamic vdsokit needs in the guest to dlopen --impl libraries:
 * every shared object this process and the libraries load (the loader,
 * libc, ...), each by the path the loader opened it by, so that the
 * guest's loader, searching the same default directories, finds it there.
 * The libraries are loaded in a child to learn it. 0, or -1 and why.
 */
#define VK_VM_MAX_FILES 32

struct vk_vm_files {
	int n;
	char path[VK_VM_MAX_FILES][256];
};

int vk_vm_dynamic_files(char *const *libs, int nlibs, struct vk_vm_files *f, char *err,
			size_t len);
/* The --impl libraries the guest's words name (--impl X, --impl=X, -I X,
 * -IX): each word made the library's absolute path, as the guest runs in
 * /, and what a dynamic vdsokit needs to load them into files. 0 (none
 * named, files->n 0), or -1 and why. */
int vk_vm_impl_files(char **words, int nwords, struct vk_vm_files *files, char *err, size_t len);

/*
 * The guest's commands, as /init runs them: argv words, one command after
 * another, an empty word between two, each under timeout seconds (0: no
 * limit). The initramfs for vdsokit as /init, them and files (NULL: none;
 * each at its own path) is made once per content, under
 * $XDG_CACHE_HOME/vdsokit/vm; its path goes to out. 0, or -1 with why.
 */
#define VK_VM_MAX_CMDS 8

/* "A ARGS -- B ARGS": each "--" made the empty word between two commands.
 * The number of commands, or -1 for one the guest cannot run (empty, vm,
 * or more than VK_VM_MAX_CMDS). */
int vk_vm_split_commands(char **words, int nwords);

int vk_vm_initramfs(const char *binary, const struct vk_vm_files *files, unsigned timeout,
		    char *const *words, int nwords, char *out, size_t len, char *err,
		    size_t errlen);

/*
 * The console's framing (core/vm/vm_frame.c says it all): the guest writes
 * numbered frames, and closes each command's output with its length and
 * checksum, so that the host finds whatever the line lost or damaged.
 */
#define VK_VM_MARK "vdsokit-vm:"
#define VK_VM_FRAMING 4
#define VK_VM_FRAME_TEXT 1024	/* a frame's text at most, unescaped */
#define VK_VM_SUM_BASIS 0x811c9dc5u
/* The host's one line to the guest, on the console's input: "stop N",
 * command N ran past its limit. */
#define VK_VM_STOP VK_VM_MARK "stop "

/* The guest's end. */
struct vk_vm_frames {
	int fd;				/* the console */
	unsigned long seq;		/* the last frame's number */
	unsigned long kseq;		/* the last kernel message's */
	int cmd;			/* the commands that exited */
	unsigned long long bytes;	/* the running command's output */
	uint32_t sum;
};

void vk_vm_frames_start(struct vk_vm_frames *f, int fd);
/* kind: 'o' a line of stdout, 'O' the same without its newline; 'e', 'E';
 * 'k' a kernel message logged while the command ran, in no output. */
void vk_vm_frame_text(struct vk_vm_frames *f, char kind, const char *s, size_t n);
void vk_vm_frame_exit(struct vk_vm_frames *f, int status);
void vk_vm_frame_end(struct vk_vm_frames *f);

/* The host's end: one console line, read. kind is the text's ('o', 'O',
 * 'e', 'E', 'k'), or 's' start, 'x' exit, 'z' end, 'p' pause. */
struct vk_vm_frame {
	char kind;
	int version;			/* start's */
	int status;			/* exit's, or pause's seconds */
	int cmd;			/* exit's */
	unsigned long seq;
	unsigned long kseq;		/* end's: the kernel messages sent */
	char *text;			/* in the line, unescaped */
	size_t n;
	unsigned long long bytes;	/* exit's */
	uint32_t sum;			/* exit's */
};

/* 1 a frame (line is changed in place), 0 a line that is none of ours
 * (the kernel's), -1 one of ours that came damaged. line[n] is '\0'. */
int vk_vm_frame_parse(char *line, size_t n, struct vk_vm_frame *fr);
/* Add a text frame to its command's running length and checksum. */
void vk_vm_frame_count(const struct vk_vm_frame *fr, uint32_t *sum, unsigned long long *bytes);

/*
 * How far a guest has run, seen from the host (core/vm/vm_progress.c):
 * the CPU time of qemu's busiest thread since a start. A limit counts
 * that, not the clock, so that a guest the host starves is not cut
 * short; a guest that waits on nothing for BACKSTOP times its limit on
 * the clock is, all the same.
 */
#define VK_VM_MAX_THREADS 128
#define VK_VM_BACKSTOP 4

struct vk_vm_progress {
	pid_t pid;
	int n;
	int tid[VK_VM_MAX_THREADS];
	unsigned long long ticks[VK_VM_MAX_THREADS];
	unsigned long long waited[VK_VM_MAX_THREADS];	/* ns, schedstat's */
};

void vk_vm_progress_start(struct vk_vm_progress *p, pid_t pid);
/* Seconds the busiest thread ran since the start; -1 if /proc cannot tell. */
double vk_vm_progress_ran(const struct vk_vm_progress *p);
/* Seconds the thread that waited most for a CPU waited since the start:
 * the time the guest's clocks went on while that vCPU stood still, which
 * the guest cannot see; -1 if /proc cannot tell (no schedstat). */
double vk_vm_progress_waited(const struct vk_vm_progress *p);

/*
 * The host's disturbance of one command of the guest: wall seconds it
 * took, the waiting of qemu's most delayed thread in them (-1: unknown)
 * and the host's load average at its end.
 */
struct vk_vm_host {
	double wall, waited, load;
};
/* Whether the host disturbed what the guest measured: more runnable tasks
 * than CPUs, as bench judges itself, or a vCPU kept from running a tenth
 * of the time (core/vm/vm_progress.c). */
int vk_vm_host_disturbed(const struct vk_vm_host *h, long cpus);
/* Whether something that began wall seconds ago and ran ran seconds
 * (-1: unknown) is past limit: 0, or what says so. */
enum { VK_VM_OVERDUE_RAN = 1, VK_VM_OVERDUE_WALL };
int vk_vm_overdue(double wall, double ran, double limit);

/* A board: qemu's machine, its CPU, a device tree and more of qemu's
 * arguments; each NULL (none) keeps the arch's own. */
#define VK_VM_MAX_QEMU_ARGS 8

struct vk_vm_board {
	const char *machine, *cpu, *dtb;
	const char *args[VK_VM_MAX_QEMU_ARGS];
	int nargs;
};

/* qemu's -M or -cpu (opt) for arch a on board b: the board's, else the
 * arch's; NULL where qemu picks its default. */
const char *vk_vm_qemu_opt(const struct vk_vm_arch *a, const struct vk_vm_board *b,
			   const char *opt);
/* The most CPUs qemu's board runs for a and b; 0: no bound known. */
unsigned long vk_vm_max_cpus(const struct vk_vm_arch *a, const struct vk_vm_board *b);

/* One boot: what qemu runs. */
struct vk_vm {
	const struct vk_vm_arch *arch;
	struct vk_vm_board board;
	const char *qemu, *kernel, *initrd, *append;
	unsigned long smp, memory;
	int kvm;
	const char *qmp;	/* a QMP socket for qemu to make, or NULL */
	/* Each command's limit, in the guest's running (0: none): the host
	 * tells the guest to stop one past it. */
	unsigned command_timeout;
};

/* How a command's output comes back: relayed to ours; its stdout kept in
 * out[] (stderr relayed); or both kept there, in the order they came. */
enum { VK_VM_RELAY, VK_VM_KEEP_STDOUT, VK_VM_KEEP_ALL };

/* What the console said. */
struct vk_vm_result {
	int started, panicked, timed_out, qemu_status;
	char panic[128];		/* the panic's reason, as the kernel said it */
	char qemu_said[256];		/* qemu's last error before /init, or KVM's stop */
	int kvm_stopped;		/* qemu said KVM failed to run the guest */
	int version;			/* the guest's framing */
	int ncmds;			/* commands that ended */
	int ended;			/* the guest said every command ran */
	int pause;			/* seconds the guest asked to be paused */
	int status[VK_VM_MAX_CMDS];	/* -1: its exit frame was lost */
	char *out[VK_VM_MAX_CMDS];
	size_t outlen[VK_VM_MAX_CMDS];
	/* Each command's output as it came, against what the guest sent. */
	unsigned long long bytes[VK_VM_MAX_CMDS];
	uint32_t sum[VK_VM_MAX_CMDS];
	int damaged[VK_VM_MAX_CMDS];	/* short, or not as sent */
	/* Frames the console lost (a gap in their numbers) or damaged. */
	unsigned long seq, lost, bad;
	unsigned long first_lost;	/* the first missing number */
	/* The kernel's messages ('k' frames) have numbers of their own, and
	 * the end frame their count: one lost is said, but harms no
	 * command's output. */
	unsigned long kseq, klost;
	/* Each ended command's host, seen from outside the guest. */
	struct vk_vm_host host[VK_VM_MAX_CMDS];
};

/* What a guest needs besides the kernel image and the command words. */
struct vk_vm_setup {
	const char *arch;	/* NULL: read it from the image */
	const char *binary;	/* NULL: find the static vdsokit for the arch */
	/* With files, this dynamic vdsokit runs instead, and they are packed. */
	const struct vk_vm_files *files;
	const char *append;
	struct vk_vm_board board;
	unsigned long smp, memory;
	unsigned command_timeout;	/* each command's, in the guest; 0: none */
};

/*
 * Fill vm for booting kernel with an initramfs running words: the arch,
 * qemu (whose path goes to qemu), the static binary, the initramfs (path
 * to initrd). 0, or -1 with why in err: each reason is bad input.
 */
int vk_vm_prepare(struct vk_vm *vm, const char *kernel, const struct vk_vm_setup *s,
		  char *const *words, int nwords, char *qemu, char *initrd, size_t len,
		  char *err, size_t errlen);

/* The kernel command line for vm into buf; its length (>= len: cut).
 * The smallest COMMAND_LINE_SIZE of vm's arches, arm's, bounds it. */
#define VK_VM_CMDLINE_MAX 1023
size_t vk_vm_cmdline(const struct vk_vm *vm, char *buf, size_t len);
/* qemu's argv for vm, in argv (at least VK_VM_ARGV words); the strings
 * built for it live in buf. */
#define VK_VM_ARGV (40 + VK_VM_MAX_QEMU_ARGS)
void vk_vm_argv(const struct vk_vm *vm, char **argv, char *buf, size_t len);
/*
 * Boot and read the console into r until qemu ends, says KVM stopped the
 * guest (its registers logged for a second) or timeout seconds pass;
 * with probe set, give up after VK_VM_PROBE_SECONDS if /init has not
 * started. keep is a VK_VM_RELAY...; every console byte goes to the fd log.
 */
#define VK_VM_PROBE_SECONDS 30
void vk_vm_boot(const struct vk_vm *vm, double timeout, int probe, int keep, int log,
		struct vk_vm_result *r);
void vk_vm_result_free(struct vk_vm_result *r);
/* Where r's panic is the host's doing, not the kernel's (an emulator too
 * slow for a check the kernel makes at boot): what happened; else NULL. */
const char *vk_vm_host_failure(const struct vk_vm_result *r);
/* Stop the guest whose QMP socket is path, wait seconds, let it go on. */
int vk_vm_qmp_pause(const char *path, double seconds, char *err, size_t len);
/*
 * KVM could run arch here: the host is of its kind, /dev/kvm (or
 * $VDSOKIT_KVM_DEVICE) is ours to use, and no earlier run since the
 * machine booted found that KVM with this qemu never reaches /init (then
 * 0, and that said in why). Whether it really can, only a boot tells.
 */
int vk_vm_kvm_possible(const struct vk_vm_arch *arch, const char *qemu, char *why, size_t len);
/* KVM with qemu did not reach /init where TCG did: remember it for the
 * rest of this machine's boot, so later runs go to TCG at once. */
void vk_vm_kvm_failed(const struct vk_vm_arch *arch, const char *qemu);

/*
 * /init of the guest's initramfs (core/vm/vm_init.c): mounts what the
 * commands read, runs the commands the host packed, frames their output
 * on the console, then powers the machine off; never returns.
 */
void vk_vm_init(void) __attribute__((noreturn));

/* A newc initramfs: directories, then files from memory or disk. */
struct vk_cpio {
	int fd;
	uint64_t off;
	unsigned ino;
};

void vk_cpio_start(struct vk_cpio *c, int fd);
int vk_cpio_dir(struct vk_cpio *c, const char *name);
int vk_cpio_file(struct vk_cpio *c, const char *name, unsigned mode, const void *data,
		 size_t len);
int vk_cpio_finish(struct vk_cpio *c);

#endif /* VK_VM_H */
