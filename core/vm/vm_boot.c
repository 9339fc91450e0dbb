// SPDX-License-Identifier: MIT
/*
 * Booting a guest for `vdsokit vm`: the initramfs, qemu's command line,
 * and reading the console, whose frames from /init (core/vm/vm_init.c)
 * core/vm/vm_frame.c reads; a pause that stress asks for is done over QMP.
 * Every other console line is the kernel's, and goes to the log only.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/base/children.h"
#include "core/base/file.h"
#include "core/base/isolate.h"
#include "core/vm/vm.h"

/* How often the limits are looked at. */
#define LOOK_SECONDS 0.5
/* How long qemu's registers are logged after KVM stopped the guest. */
#define KVM_STOP_GRACE 1.0
#define PANIC "Kernel panic - not syncing: "

static int read_file(const char *path, char **data, size_t *len)
{
	char err[8];
	int fd = vk_open_regular(path, err, sizeof(err));
	struct stat st;
	ssize_t n = -1;

	*data = NULL;
	if (fd >= 0 && fstat(fd, &st) == 0 && (*data = malloc(st.st_size + 1)))
		n = read(fd, *data, st.st_size);
	if (fd >= 0)
		close(fd);
	if (n < 0 || n != (ssize_t)st.st_size) {
		free(*data);
		return -1;
	}
	*len = n;
	return 0;
}

static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

static int mkdirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(path, 0755) && errno != EEXIST ? -1 : 0;
}

/* Whether dir (len bytes of a path) is a directory of an earlier file's. */
static int dir_packed(const struct vk_vm_files *f, int upto, const char *dir, size_t len)
{
	for (int i = 0; i < upto; i++) {
		if (!strncmp(f->path[i], dir, len) && f->path[i][len] == '/')
			return 1;
	}
	return 0;
}

/* Each file at its own path, after the directories it is in. */
static int pack_files(struct vk_cpio *c, const struct vk_vm_files *f)
{
	char dir[sizeof(f->path[0])], *data;
	size_t len;
	int bad = 0;

	for (int i = 0; f && i < f->n && !bad; i++) {
		for (const char *p = f->path[i] + 1; (p = strchr(p, '/')); p++) {
			size_t n = p - f->path[i];

			if (dir_packed(f, i, f->path[i], n))
				continue;
			snprintf(dir, sizeof(dir), "%.*s", (int)(n - 1), f->path[i] + 1);
			bad |= vk_cpio_dir(c, dir);
		}
		if (read_file(f->path[i], &data, &len))
			return -1;
		bad |= vk_cpio_file(c, f->path[i] + 1, 0755, data, len);
		free(data);
	}
	return bad ? -1 : 0;
}

static int write_initramfs(const char *path, const char *bin, size_t nbin,
			   const struct vk_vm_files *files, const char *args, size_t nargs)
{
	char tmp[PATH_MAX + 16];
	struct vk_cpio c;
	int fd, bad;

	snprintf(tmp, sizeof(tmp), "%s.%d", path, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	vk_cpio_start(&c, fd);
	bad = vk_cpio_dir(&c, "dev") || vk_cpio_dir(&c, "proc") || vk_cpio_dir(&c, "sys") ||
	      vk_cpio_file(&c, "init", 0755, bin, nbin) || pack_files(&c, files) ||
	      vk_cpio_file(&c, "vdsokit.args", 0644, args, nargs) || vk_cpio_finish(&c);
	bad |= close(fd);
	if (bad || rename(tmp, path)) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* The files' names and contents, into h. */
static int hash_files(const struct vk_vm_files *f, uint64_t *h)
{
	char *data;
	size_t len;

	for (int i = 0; f && i < f->n; i++) {
		if (read_file(f->path[i], &data, &len))
			return -1;
		*h = fnv1a(fnv1a(*h, f->path[i], strlen(f->path[i]) + 1), data, len);
		free(data);
	}
	return 0;
}

int vk_vm_initramfs(const char *binary, const struct vk_vm_files *files, unsigned timeout,
		    char *const *words, int nwords, char *out, size_t len, char *err,
		    size_t errlen)
{
	char args[4096], dir[PATH_MAX], *bin;
	const char *cache = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	size_t nargs, nbin;
	uint64_t h = 0xcbf29ce484222325ull;
	int bad;

	/* The file's first word is the timeout, then the commands' words. */
	nargs = snprintf(args, sizeof(args), "%u", timeout) + 1;
	for (int i = 0; i < nwords; i++) {
		size_t n = strlen(words[i]) + 1;

		if (nargs + n > sizeof(args)) {
			snprintf(err, errlen, "the guest's commands are longer than %zu bytes",
				 sizeof(args));
			return -1;
		}
		memcpy(args + nargs, words[i], n);
		nargs += n;
	}
	if (read_file(binary, &bin, &nbin)) {
		snprintf(err, errlen, "%s: %s", binary, strerror(errno));
		return -1;
	}
	h = fnv1a(fnv1a(h, bin, nbin), args, nargs);
	if (hash_files(files, &h)) {
		snprintf(err, errlen, "cannot read a file to pack: %s", strerror(errno));
		free(bin);
		return -1;
	}
	if (cache && *cache)
		snprintf(dir, sizeof(dir), "%s/vdsokit/vm", cache);
	else
		snprintf(dir, sizeof(dir), "%s/.cache/vdsokit/vm", home && *home ? home : "/tmp");
	if ((size_t)snprintf(out, len, "%s/%016llx.cpio", dir, (unsigned long long)h) >= len) {
		errno = ENAMETOOLONG;
		bad = 1;
	} else {
		bad = access(out, R_OK) &&
		      (mkdirs(dir) || write_initramfs(out, bin, nbin, files, args, nargs));
	}
	if (bad)
		snprintf(err, errlen, "cannot write the initramfs %s: %s", out, strerror(errno));
	free(bin);
	return bad ? -1 : 0;
}

/* The first of dir/name on $PATH, or -1. */
static int find_on_path(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH");
	char dirs[4096], *save = NULL;

	snprintf(dirs, sizeof(dirs), "%s", path ? path : "/usr/bin:/bin");
	for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		snprintf(out, len, "%s/%s", d, name);
		if (access(out, X_OK) == 0)
			return 0;
	}
	return -1;
}

/* The static vdsokit for arch: ARCH/vdsokit in $VDSOKIT_CROSS_DIR, or in
 * cross/ beside this binary, where 'make cross' puts it. */
static int find_binary(const struct vk_vm_arch *a, char *out, size_t len, char *err,
		       size_t errlen)
{
	char exe[PATH_MAX], dirs[2][PATH_MAX + 8], *slash;
	const char *env = getenv("VDSOKIT_CROSS_DIR");
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int ndirs = 0;

	exe[n > 0 ? n : 0] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	if (env && *env)
		snprintf(dirs[ndirs++], sizeof(dirs[0]), "%s", env);
	snprintf(dirs[ndirs++], sizeof(dirs[0]), "%s/cross", exe);
	for (int i = 0; i < ndirs; i++) {
		if ((size_t)snprintf(out, len, "%s/%s/vdsokit", dirs[i], a->name) < len &&
		    access(out, R_OK) == 0)
			return 0;
	}
	snprintf(err, errlen, "no static vdsokit for %s: build it with 'make cross ARCH=%s', or give --binary (looked in %s%s%s)",
		 a->name, a->name, dirs[0], ndirs > 1 ? " and " : "", ndirs > 1 ? dirs[1] : "");
	return -1;
}

int vk_vm_prepare(struct vk_vm *vm, const char *kernel, const struct vk_vm_setup *s,
		  char *const *words, int nwords, char *qemu, char *initrd, size_t len,
		  char *err, size_t errlen)
{
	char binary[PATH_MAX], cmdline[VK_VM_CMDLINE_MAX + 1], why[PATH_MAX + 64];
	unsigned long max;
	size_t n;

	memset(vm, 0, sizeof(*vm));
	if (s->arch && !(vm->arch = vk_vm_arch_find(s->arch))) {
		char names[128];

		vk_vm_arch_names(names, sizeof(names));
		snprintf(err, errlen, "unknown --arch '%s' (%s)", s->arch, names);
		return -1;
	}
	if (!vm->arch && vk_vm_kernel_arch(kernel, &vm->arch, err, errlen))
		return -1;
	if (vk_check_regular(kernel, err, errlen))
		return -1;
	if (find_on_path(vm->arch->qemu, qemu, len)) {
		snprintf(err, errlen, "%s is not installed (Debian package %s)", vm->arch->qemu,
			 vm->arch->package);
		return -1;
	}
	/* --impl: this dynamic vdsokit, which can dlopen. */
	if (s->files) {
		if (!realpath("/proc/self/exe", binary)) {
			snprintf(err, errlen, "/proc/self/exe: %s", strerror(errno));
			return -1;
		}
	} else if (s->binary) {
		snprintf(binary, sizeof(binary), "%s", s->binary);
	} else if (find_binary(vm->arch, binary, sizeof(binary), err, errlen)) {
		return -1;
	}
	if (vk_vm_check_binary(binary, vm->arch, s->files != NULL, err, errlen) ||
	    vk_vm_initramfs(binary, s->files, s->command_timeout, words, nwords, initrd, len, err,
			    errlen))
		return -1;
	if (s->board.dtb && vk_check_regular(s->board.dtb, why, sizeof(why))) {
		snprintf(err, errlen, "--dtb %s", why);
		return -1;
	}
	vm->board = s->board;
	vm->qemu = qemu;
	vm->kernel = kernel;
	vm->initrd = initrd;
	vm->append = s->append;
	/* No more CPUs than the board runs: the caller says so. */
	max = vk_vm_max_cpus(vm->arch, &vm->board);
	vm->smp = max && s->smp > max ? max : s->smp;
	vm->memory = s->memory;
	vm->command_timeout = s->command_timeout;
	n = vk_vm_cmdline(vm, cmdline, sizeof(cmdline));
	if (n > VK_VM_CMDLINE_MAX) {
		snprintf(err, errlen, "--append: the kernel command line would be %zu bytes, over the %d that every arch's kernel takes",
			 n, VK_VM_CMDLINE_MAX);
		return -1;
	}
	return 0;
}

size_t vk_vm_cmdline(const struct vk_vm *vm, char *buf, size_t len)
{
	const struct vk_vm_arch *a = vm->arch;

	return snprintf(buf, len, "console=%s panic=-1 quiet vdsokit.vm=1%s%s%s%s", a->console,
			*a->append ? " " : "", a->append, vm->append ? " " : "",
			vm->append ? vm->append : "");
}

void vk_vm_argv(const struct vk_vm *vm, char **argv, char *buf, size_t len)
{
	const struct vk_vm_arch *a = vm->arch;
	int x86 = !strcmp(a->name, "x86_64") || !strcmp(a->name, "i386"), n = 0;
	char *smp = buf, *mem = buf + 24, *qmp = buf + 48, *append = buf + 200;
	const struct vk_vm_board *b = &vm->board;
	int cpu = 0;

	argv[n++] = (char *)vm->qemu;
	for (int i = 0; i < VK_VM_MACHINE_WORDS && a->machine[i]; i++) {
		const char *opt = i > 0 ? a->machine[i - 1] : "";

		cpu |= !strcmp(opt, "-cpu");
		if (b->machine && !strcmp(opt, "-M"))
			argv[n++] = (char *)b->machine;
		else if (b->cpu && !strcmp(opt, "-cpu"))
			argv[n++] = (char *)b->cpu;
		/* Under KVM the guest gets the host's CPU. */
		else if (vm->kvm && !strcmp(opt, "-cpu"))
			argv[n++] = x86 ? "host,+invtsc" : "host";
		else
			argv[n++] = (char *)a->machine[i];
	}
	if (b->cpu && !cpu) {
		argv[n++] = "-cpu";
		argv[n++] = (char *)b->cpu;
	}
	if (b->dtb) {
		argv[n++] = "-dtb";
		argv[n++] = (char *)b->dtb;
	}
	snprintf(smp, 24, "%lu", vm->smp);
	snprintf(mem, 24, "%lu", vm->memory);
	vk_vm_cmdline(vm, append, len - 200);
	/* No network (no option ROM to find) and no reboot: a panic ends qemu. */
	const char *rest[] = {
		"-accel", vm->kvm ? "kvm" : "tcg", "-smp", smp, "-m", mem, "-display", "none",
		"-monitor", "none", "-serial", "stdio", "-nic", "none", "-no-reboot",
		"-kernel", vm->kernel, "-initrd", vm->initrd, "-append", append,
	};
	for (size_t i = 0; i < ARRAY_SIZE(rest); i++)
		argv[n++] = (char *)rest[i];
	if (vm->qmp) {
		snprintf(qmp, 152, "unix:%s,server=on,wait=off", vm->qmp);
		argv[n++] = "-qmp";
		argv[n++] = qmp;
	}
	for (int i = 0; i < b->nargs; i++)
		argv[n++] = (char *)b->args[i];
	argv[n] = NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Keep n bytes of the current command's output in out[]. */
static void append_out(struct vk_vm_result *r, const char *s, size_t n)
{
	int k = r->ncmds;
	char *p;

	if (k >= VK_VM_MAX_CMDS || !(p = realloc(r->out[k], r->outlen[k] + n + 1)))
		return;
	memcpy(p + r->outlen[k], s, n);
	r->outlen[k] += n;
	p[r->outlen[k]] = '\0';
	r->out[k] = p;
}

static void output(struct vk_vm_result *r, int keep, char kind, const char *s, size_t n)
{
	int err = kind == 'e' || kind == 'E', line = kind == 'o' || kind == 'e';

	if (keep == VK_VM_KEEP_ALL || (keep == VK_VM_KEEP_STDOUT && !err)) {
		append_out(r, s, n);
		if (line)
			append_out(r, "\n", 1);
		return;
	}
	vk_write_all(err ? STDERR_FILENO : STDOUT_FILENO, s, n);
	if (line)
		vk_write_all(err ? STDERR_FILENO : STDOUT_FILENO, "\n", 1);
}

/* The running command's output was not as sent. */
static void damage(struct vk_vm_result *r)
{
	if (r->ncmds < VK_VM_MAX_CMDS)
		r->damaged[r->ncmds] = 1;
}

/* Frames are numbered from 1: a gap is frames the console lost. */
static void sequence(struct vk_vm_result *r, unsigned long seq)
{
	if (seq == r->seq + 1) {
		r->seq = seq;
		return;
	}
	if (seq <= r->seq) {
		r->bad++;
	} else {
		if (!r->lost)
			r->first_lost = r->seq + 1;
		r->lost += seq - r->seq - 1;
		r->seq = seq;
	}
	damage(r);
}

/* Command fr->cmd exited: what came of its output against what was sent. */
static void command_exit(struct vk_vm_result *r, const struct vk_vm_frame *fr)
{
	int k = fr->cmd - 1;

	if (k < r->ncmds) {
		r->bad++;
		return;
	}
	/* Commands between whose exit frames were lost. */
	for (; r->ncmds < k; r->ncmds++) {
		r->status[r->ncmds] = -1;
		r->damaged[r->ncmds] = 1;
	}
	if (r->bytes[k] != fr->bytes || r->sum[k] != fr->sum)
		r->damaged[k] = 1;
	r->status[r->ncmds++] = fr->status;
}

/*
 * What qemu says when KVM fails to run the guest (accel/kvm/kvm-all.c,
 * target/i386/kvm/kvm.c): it stops the guest and waits, alive and idle,
 * for a monitor command that never comes. No guest runs after it.
 */
static const char *const kvm_stops[] = {
	"KVM internal error.",
	"KVM: entry failed, hardware error",
	"error: kvm run failed",
};

static int kvm_stop(const char *line)
{
	for (size_t i = 0; i < ARRAY_SIZE(kvm_stops); i++) {
		if (!strncmp(line, kvm_stops[i], strlen(kvm_stops[i])))
			return 1;
	}
	return 0;
}

static void console_line(struct vk_vm_result *r, int keep, char *line, size_t n)
{
	struct vk_vm_frame fr;
	const char *p;
	int got;

	if ((p = strstr(line, PANIC))) {
		r->panicked = 1;
		snprintf(r->panic, sizeof(r->panic), "%s", p + strlen(PANIC));
	}
	got = vk_vm_frame_parse(line, n, &fr);
	/* qemu's own errors ("qemu: linux kernel too old..."), not its warnings. */
	if (!got && !r->started && !r->kvm_stopped && !strncmp(line, "qemu", 4) && (p = strstr(line, ": ")) &&
	    strncmp(p + 2, "warning:", 8))
		snprintf(r->qemu_said, sizeof(r->qemu_said), "%.*s", (int)sizeof(r->qemu_said) - 1, line);
	if (!got && !r->kvm_stopped && kvm_stop(line)) {
		r->kvm_stopped = 1;
		snprintf(r->qemu_said, sizeof(r->qemu_said), "%.*s", (int)sizeof(r->qemu_said) - 1, line);
	}
	if (got < 0) {
		r->bad++;
		damage(r);
	}
	if (got <= 0)
		return;
	if (fr.seq && fr.kind != 'k')
		sequence(r, fr.seq);
	switch (fr.kind) {
	case 's':
		r->started = 1;
		r->version = fr.version;
		break;
	case 'p':
		r->pause = fr.status;
		break;
	case 'z':
		r->ended = 1;
		if (fr.kseq > r->kseq)
			r->klost += fr.kseq - r->kseq;
		break;
	case 'x':
		command_exit(r, &fr);
		break;
	case 'k':
		/* The kernel's, for the console log: in no command's output. */
		if (fr.seq > r->kseq + 1)
			r->klost += fr.seq - r->kseq - 1;
		r->kseq = fr.seq;
		break;
	default:
		if (r->ncmds >= VK_VM_MAX_CMDS)
			break;
		vk_vm_frame_count(&fr, &r->sum[r->ncmds], &r->bytes[r->ncmds]);
		output(r, keep, fr.kind, fr.text, fr.n);
	}
}

/* The serial console's tty turns each \n into \r\n: drop the \r. */
static ssize_t strip_cr(char *buf, ssize_t n)
{
	ssize_t m = 0;

	for (ssize_t i = 0; i < n; i++) {
		if (buf[i] != '\r')
			buf[m++] = buf[i];
	}
	return m;
}

/* qemu, its console our fd, its console's input our in. */
static pid_t start_qemu(const struct vk_vm *vm, int *fd, int *in)
{
	char *argv[VK_VM_ARGV], buf[2048];
	int p[2], s[2];
	pid_t pid;

	vk_vm_argv(vm, argv, buf, sizeof(buf));
	/* A socket, not a pipe: a send to a qemu that died raises no SIGPIPE. */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, s))
		return -1;
	/* Close-on-exec: a process qemu leaves must not hold the console open. */
	if (pipe2(p, O_CLOEXEC)) {
		close(s[0]);
		close(s[1]);
		return -1;
	}
	pid = vk_fork();
	if (pid == 0) {
		dup2(s[1], STDIN_FILENO);
		dup2(p[1], STDOUT_FILENO);
		dup2(p[1], STDERR_FILENO);
		execv(argv[0], argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	close(s[1]);
	*fd = p[0];
	*in = s[0];
	if (pid < 0) {
		close(p[0]);
		close(s[0]);
	}
	return pid;
}

/* What the guest asked: the pause, done, and said in the console log. */
static void pause_guest(const char *qmp, struct vk_vm_result *r, int log)
{
	char err[256], say[320];
	int n, ok = 0;

	if (r->pause < 1 || r->pause > 60)
		snprintf(err, sizeof(err), "%d s is not a pause from 1 to 60 s", r->pause);
	else
		ok = vk_vm_qmp_pause(qmp, r->pause, err, sizeof(err)) == 0;
	if (ok)
		n = snprintf(say, sizeof(say), "vdsokit vm: paused the guest %d s (QMP stop, cont)\n",
			     r->pause);
	else
		n = snprintf(say, sizeof(say), "vdsokit vm: did not pause the guest: %s\n", err);
	vk_write_all(log, say, n);
	r->pause = 0;
}

/* How far the boot and its running command have gone. */
struct watch {
	pid_t qemu;
	int in;			/* the console's input */
	double start, cmd_start;
	struct vk_vm_progress boot, cmd;
	int cmd_watched;	/* the command whose start cmd holds, or -1 */
	int cmd_stopped;	/* the last one told to stop, or -1 */
	int cmd_said;		/* the last one whose run was said, or -1 */
};

/* A command began (the first when /init started, the next at each exit):
 * its running is counted from now. */
static void command_began(struct watch *w, const struct vk_vm_result *r)
{
	if (!r->started || r->ended || w->cmd_watched == r->ncmds)
		return;
	w->cmd_watched = r->ncmds;
	w->cmd_start = now();
	vk_vm_progress_start(&w->cmd, w->qemu);
}

/* A command ended: how the host disturbed it, kept in r and said in the
 * console log; with a limit, how far it ran, for the margin a loaded
 * host leaves it (make soak prints the slowest). */
static void command_ended(const struct vk_vm *vm, struct watch *w, struct vk_vm_result *r,
			  int log)
{
	struct vk_vm_host *h;
	char say[256];
	int n;

	if (w->cmd_watched < 0 || r->ncmds <= w->cmd_watched || w->cmd_said == w->cmd_watched)
		return;
	w->cmd_said = w->cmd_watched;
	h = &r->host[w->cmd_watched];
	h->wall = now() - w->cmd_start;
	h->waited = vk_vm_progress_waited(&w->cmd);
	if (getloadavg(&h->load, 1) != 1)
		h->load = 0;
	if (h->waited >= 0)
		n = snprintf(say, sizeof(say), "vdsokit vm: command %d's host: %.1f s on the clock, qemu's most delayed thread waited %.1f s for a CPU, load %.2f\n",
			     w->cmd_watched + 1, h->wall, h->waited, h->load);
	else
		n = snprintf(say, sizeof(say), "vdsokit vm: command %d's host: %.1f s on the clock, qemu's waits unknown (no schedstat), load %.2f\n",
			     w->cmd_watched + 1, h->wall, h->load);
	vk_write_all(log, say, n);
	if (!vm->command_timeout)
		return;
	n = snprintf(say, sizeof(say), "vdsokit vm: command %d ran %.1f s (qemu's busiest thread, in %.1f s on the clock) of its %u s\n",
		     w->cmd_watched + 1, vk_vm_progress_ran(&w->cmd), h->wall,
		     vm->command_timeout);
	vk_write_all(log, say, n);
}

/* The running command ran past its limit: told to the guest, whose /init
 * stops it and goes on, and said in the console log. */
static void command_limit(const struct vk_vm *vm, struct watch *w, const struct vk_vm_result *r,
			  int log)
{
	char line[64], say[256];
	double ran, wall;
	int n;

	if (!vm->command_timeout || w->cmd_watched != r->ncmds || w->cmd_stopped == r->ncmds)
		return;
	ran = vk_vm_progress_ran(&w->cmd);
	wall = now() - w->cmd_start;
	/* Past BACKSTOP times the limit on the clock, /init stops it itself. */
	if (vk_vm_overdue(wall, ran, vm->command_timeout) != VK_VM_OVERDUE_RAN)
		return;
	w->cmd_stopped = r->ncmds;
	n = snprintf(line, sizeof(line), VK_VM_STOP "%d\n", r->ncmds + 1);
	send(w->in, line, n, MSG_NOSIGNAL | MSG_DONTWAIT);
	n = snprintf(say, sizeof(say), "vdsokit vm: command %d ran %.1f s (qemu's busiest thread, in %.1f s on the clock), past its %u s: told the guest to stop it\n",
		     r->ncmds + 1, ran, wall, vm->command_timeout);
	vk_write_all(log, say, n);
}

/* Whether the boot is past its time: timeout seconds of running, or
 * BACKSTOP times that on the clock; with probe, /init not started in
 * VK_VM_PROBE_SECONDS on the clock. */
static int boot_overdue(struct watch *w, const struct vk_vm_result *r, double timeout,
			int probe)
{
	double wall = now() - w->start;

	if (probe && !r->started)
		return wall >= VK_VM_PROBE_SECONDS;
	return vk_vm_overdue(wall, vk_vm_progress_ran(&w->boot), timeout) != 0;
}

void vk_vm_boot(const struct vk_vm *vm, double timeout, int probe, int keep, int log,
		struct vk_vm_result *r)
{
	static unsigned boots;
	char buf[4096], line[8192], qmp[100];
	const char *tmp = getenv("TMPDIR");
	size_t n = 0;
	struct vk_vm v = *vm;
	struct watch w = { .cmd_watched = -1, .cmd_stopped = -1, .cmd_said = -1 };
	double next_look, stopped = 0;
	int fd, status;

	memset(r, 0, sizeof(*r));
	for (int k = 0; k < VK_VM_MAX_CMDS; k++)
		r->sum[k] = VK_VM_SUM_BASIS;
	/* A socket's path is short: in $TMPDIR if it fits, else /tmp. */
	if (!tmp || !*tmp || strlen(tmp) > 60)
		tmp = "/tmp";
	snprintf(qmp, sizeof(qmp), "%s/vdsokit-qmp-%d-%u", tmp, (int)getpid(), boots++);
	v.qmp = qmp;
	/* qemu makes the socket; a signal that ends the run removes it. */
	vk_children_leave(qmp);
	w.qemu = start_qemu(&v, &fd, &w.in);
	if (w.qemu < 0) {
		vk_children_unleave(qmp);
		return;
	}
	w.start = now();
	next_look = w.start + LOOK_SECONDS;
	vk_vm_progress_start(&w.boot, w.qemu);
	for (;;) {
		struct pollfd pf = { fd, POLLIN, 0 };
		ssize_t got;

		/* Limits are looked at every LOOK_SECONDS, output or none. */
		if (now() >= next_look) {
			next_look = now() + LOOK_SECONDS;
			if (r->kvm_stopped && now() - stopped >= KVM_STOP_GRACE)
				break;
			if (boot_overdue(&w, r, timeout, probe)) {
				r->timed_out = 1;
				break;
			}
			command_limit(vm, &w, r, log);
		}
		if (poll(&pf, 1, (int)((next_look - now()) * 1000) + 1) <= 0)
			continue;
		got = read(fd, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		got = strip_cr(buf, got);
		for (ssize_t i = 0; i < got; i++) {
			if (buf[i] == '\n' || n == sizeof(line) - 1) {
				/* The log takes whole lines, so that vm's own
				 * lines fall between the guest's, never inside. */
				line[n] = buf[i];
				vk_write_all(log, line, n + 1);
				line[n] = '\0';
				console_line(r, keep, line, n);
				if (r->kvm_stopped && !stopped)
					stopped = now();
				command_ended(vm, &w, r, log);
				command_began(&w, r);
				n = 0;
			} else {
				line[n++] = buf[i];
			}
		}
		if (r->pause)
			pause_guest(qmp, r, log);
	}
	vk_write_all(log, line, n);
	kill(w.qemu, SIGKILL);
	vk_waitpid(w.qemu, &status, 0);
	unlink(qmp);
	vk_children_unleave(qmp);
	r->qemu_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	close(fd);
	close(w.in);
}

/* Panics that a slow or busy host causes, whatever the kernel. */
static const struct {
	const char *reason, *what;
} host_panics[] = {
	{ "IO-APIC + timer doesn't work",
	  "the kernel's boot-time timer check ran slower than it allows (no_timer_check skips it)" },
};

const char *vk_vm_host_failure(const struct vk_vm_result *r)
{
	for (size_t i = 0; r->panicked && i < ARRAY_SIZE(host_panics); i++) {
		if (!strncmp(r->panic, host_panics[i].reason, strlen(host_panics[i].reason)))
			return host_panics[i].what;
	}
	return NULL;
}

void vk_vm_result_free(struct vk_vm_result *r)
{
	for (int i = 0; i < VK_VM_MAX_CMDS; i++)
		free(r->out[i]);
}
