// SPDX-License-Identifier: MIT
/*
 * vdsokit vm: boot a kernel under qemu with an initramfs whose /init is a
 * static vdsokit, run one vdsokit command in it, relay that command's
 * stdout and stderr as they come, and exit with its status. The guest's
 * side is commands/vm_init.c; the console's framing is described there.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "../core/vm.h"

#define MARK "vdsokit-vm:"
#define PROBE_SECONDS 30	/* for KVM to reach /init, or TCG it is */

/* Statuses of a guest that gave no result (documented in --help). */
enum { VM_TIMEOUT = 5, VM_PANIC = 6, VM_NO_RESULT = 7 };

static const char usage[] =
	"Usage: vdsokit vm --kernel IMAGE [--arch ARCH] [--accel auto|kvm|tcg] [--smp N]\n"
	"                  [--memory MIB] [--append ARGS] [--timeout SEC] [--binary FILE]\n"
	"                  [--dry-run] [-- COMMAND [ARGS...]]\n\n"
	"Boot IMAGE (a kernel you built: bzImage, Image, zImage, vmlinux) under qemu\n"
	"with an initramfs whose /init is a static vdsokit for its architecture, run\n"
	"'vdsokit COMMAND ARGS' there (default: all), relay its stdout and stderr, and\n"
	"exit with its status. Nothing is installed: the kernel runs in qemu.\n\n"
	"  -k, --kernel IMAGE   the kernel image to boot\n"
	"  -a, --arch ARCH      its architecture, where its header does not say:\n"
	"                       x86_64, i386, arm64, armhf, ppc64le, s390x, riscv64\n"
	"      --accel MODE     auto (default: KVM where the guest's arch is the host's,\n"
	"                       /dev/kvm is usable and the guest reaches /init within\n"
	"                       30 s; TCG otherwise), kvm or tcg\n"
	"      --smp N          virtual CPUs (default 2)\n"
	"  -m, --memory MIB     guest memory in MiB (default 1024)\n"
	"      --append ARGS    more kernel command line (x86 gets tsc=reliable\n"
	"                       clocksource=tsc, so that the vDSO can read the clock)\n"
	"  -t, --timeout SEC    the whole boot's limit (default 900)\n"
	"  -b, --binary FILE    the static vdsokit to run (default: cross/ARCH/vdsokit\n"
	"                       beside this binary, as 'make cross ARCH=...' builds it)\n"
	"  -n, --dry-run        print the qemu command line and exit\n"
	"  -h, --help           show this help\n\n"
	"Under TCG every figure is emulated, not the hardware's. The console log is\n"
	"kept, and named, when the guest gives no result.\n\n"
	"Exit status: the command's own (0, 1, 2, 4), or 2 bad input (not a kernel,\n"
	"no qemu or no static vdsokit for the arch), 5 timed out, 6 the kernel\n"
	"panicked, 7 the guest ended without running the command.\n";

struct opts {
	const char *kernel, *arch, *append, *binary;
	int accel;		/* 0 auto, 1 kvm, 2 tcg */
	unsigned long smp, memory;
	double timeout;
	int dry_run;
	char **cmd;
	int ncmd;
};

/* A boot's result, from the console. */
struct boot {
	int started, panicked, status;	/* status -1: none came */
	int timed_out, qemu_status;
};

static int parse_ulong(const char *cmd, const char *opt, const char *arg, unsigned long lo,
		       unsigned long hi, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || *out < lo || *out > hi)
		return vk_usage_error(cmd, "%s: '%s' is not a whole number from %lu to %lu", opt,
				      arg, lo, hi);
	return 0;
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

/* The static vdsokit for arch: --binary, $VDSOKIT_CROSS_DIR/ARCH/vdsokit,
 * or cross/ARCH/vdsokit beside this binary (the build tree's layout) or
 * in ../lib/vdsokit/ARCH/ (an installed one's). */
static int find_binary(const char *cmd, const struct opts *o, const struct vk_vm_arch *a,
		       char *out, size_t len)
{
	char exe[PATH_MAX], tried[3 * PATH_MAX] = "", *slash;
	const char *env = getenv("VDSOKIT_CROSS_DIR");
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	size_t t = 0;

	if (o->binary) {
		snprintf(out, len, "%s", o->binary);
		return 0;
	}
	exe[n > 0 ? n : 0] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	for (int i = 0; i < 3; i++) {
		if (i == 0 && !env)
			continue;
		if (i == 0)
			snprintf(out, len, "%s/%s/vdsokit", env, a->name);
		else
			snprintf(out, len, i == 1 ? "%s/cross/%s/vdsokit" : "%s/../lib/vdsokit/%s/vdsokit",
				 exe, a->name);
		if (access(out, R_OK) == 0)
			return 0;
		t += snprintf(tried + t, sizeof(tried) - t, "%s%s", t ? ", " : "", out);
	}
	fprintf(stderr, "%s: no static vdsokit for %s: build it with 'make cross ARCH=%s', or give --binary (looked for %s)\n",
		cmd, a->name, a->name, tried);
	return -1;
}

static int read_file(const char *path, char **data, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
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

static int write_initramfs(const char *path, const char *bin, size_t nbin, const char *args,
			   size_t nargs)
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
	      vk_cpio_file(&c, "init", 0755, bin, nbin) ||
	      vk_cpio_file(&c, "vdsokit.args", 0644, args, nargs) || vk_cpio_finish(&c);
	bad |= close(fd);
	if (bad || rename(tmp, path)) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* The initramfs for this binary and command, made once per content under
 * $XDG_CACHE_HOME/vdsokit/vm. */
static int initramfs(const char *cmd, const char *binary, const struct opts *o, char *out,
		     size_t len)
{
	char args[4096], dir[PATH_MAX], *bin;
	const char *cache = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	size_t nargs = 0, nbin;
	uint64_t h = 0xcbf29ce484222325ull;
	int bad;

	for (int i = 0; i < o->ncmd; i++) {
		size_t n = strlen(o->cmd[i]) + 1;

		if (nargs + n > sizeof(args))
			return vk_usage_error(cmd, "the command's arguments are longer than %zu bytes",
					      sizeof(args));
		memcpy(args + nargs, o->cmd[i], n);
		nargs += n;
	}
	if (read_file(binary, &bin, &nbin)) {
		fprintf(stderr, "%s: %s: %s\n", cmd, binary, strerror(errno));
		return VK_EXIT_USAGE;
	}
	h = fnv1a(fnv1a(h, bin, nbin), args, nargs);
	if (cache && *cache)
		snprintf(dir, sizeof(dir), "%s/vdsokit/vm", cache);
	else
		snprintf(dir, sizeof(dir), "%s/.cache/vdsokit/vm", home && *home ? home : "/tmp");
	if ((size_t)snprintf(out, len, "%s/%016llx.cpio", dir, (unsigned long long)h) >= len) {
		errno = ENAMETOOLONG;
		bad = 1;
	} else {
		bad = access(out, R_OK) && (mkdirs(dir) || write_initramfs(out, bin, nbin, args, nargs));
	}
	if (bad) {
		fprintf(stderr, "%s: cannot write the initramfs %s: %s\n", cmd, out, strerror(errno));
		free(bin);
		return VK_EXIT_USAGE;
	}
	free(bin);
	return VK_EXIT_OK;
}

/* KVM can run a guest of arch here if the host is of its kind and
 * /dev/kvm is ours to use; whether it really can, only a boot tells. */
static int kvm_possible(const struct vk_vm_arch *a)
{
	struct utsname u;

	return a->host && uname(&u) == 0 && !strcmp(u.machine, a->host) &&
	       access("/dev/kvm", R_OK | W_OK) == 0;
}

struct qemu_argv {
	char *v[48];
	int n;
	char smp[24], mem[24], append[2048];
};

static void add(struct qemu_argv *q, const char *s)
{
	if (q->n < (int)(sizeof(q->v) / sizeof(q->v[0])) - 1)
		q->v[q->n++] = (char *)s;
	q->v[q->n] = NULL;
}

static void build_argv(struct qemu_argv *q, const char *qemu, const struct vk_vm_arch *a,
		       const struct opts *o, const char *initrd, int kvm)
{
	int x86 = !strcmp(a->name, "x86_64") || !strcmp(a->name, "i386");

	q->n = 0;
	add(q, qemu);
	for (int i = 0; i < 6 && a->machine[i]; i++) {
		/* Under KVM the guest gets the host's CPU. */
		if (kvm && i > 0 && !strcmp(a->machine[i - 1], "-cpu"))
			add(q, x86 ? "host,+invtsc" : "host");
		else
			add(q, a->machine[i]);
	}
	add(q, "-accel");
	add(q, kvm ? "kvm" : "tcg");
	snprintf(q->smp, sizeof(q->smp), "%lu", o->smp);
	snprintf(q->mem, sizeof(q->mem), "%lu", o->memory);
	snprintf(q->append, sizeof(q->append), "console=%s panic=-1 quiet vdsokit.vm=1%s%s%s%s",
		 a->console, *a->append ? " " : "", a->append, o->append ? " " : "",
		 o->append ? o->append : "");
	add(q, "-smp");
	add(q, q->smp);
	add(q, "-m");
	add(q, q->mem);
	/* No network (no option ROM to find) and no reboot: a panic ends qemu. */
	add(q, "-display");
	add(q, "none");
	add(q, "-monitor");
	add(q, "none");
	add(q, "-serial");
	add(q, "stdio");
	add(q, "-nic");
	add(q, "none");
	add(q, "-no-reboot");
	add(q, "-kernel");
	add(q, o->kernel);
	add(q, "-initrd");
	add(q, initrd);
	add(q, "-append");
	add(q, q->append);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void put(int fd, const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= w;
	}
}

/* One console line: the command's output goes out, the rest to the log only. */
static void console_line(struct boot *b, char *line, size_t n)
{
	size_t m = strlen(MARK);

	if (n > 0 && line[n - 1] == '\r')
		line[--n] = '\0';
	if (strstr(line, "Kernel panic - not syncing"))
		b->panicked = 1;
	if (n < m || memcmp(line, MARK, m))
		return;
	line += m;
	n -= m;
	if (n >= 2 && strchr("oOeE", line[0]) && line[1] == ' ') {
		int fd = line[0] == 'o' || line[0] == 'O' ? STDOUT_FILENO : STDERR_FILENO;

		put(fd, line + 2, n - 2);
		if (line[0] == 'o' || line[0] == 'e')
			put(fd, "\n", 1);
	} else if (!strcmp(line, "start")) {
		b->started = 1;
	} else if (!strncmp(line, "exit ", 5)) {
		b->status = atoi(line + 5);
	}
}

/*
 * Boot once: read qemu's console until it ends, the deadline passes, or,
 * with probe set, /init has not started within PROBE_SECONDS.
 */
static void boot(char **argv, double timeout, int probe, int log, struct boot *b)
{
	char buf[4096], line[8192];
	size_t n = 0;
	double deadline = now() + timeout, started_by = now() + PROBE_SECONDS;
	int p[2], status;
	pid_t pid;

	memset(b, 0, sizeof(*b));
	b->status = -1;
	if (pipe(p))
		return;
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		dup2(null, STDIN_FILENO);
		dup2(p[1], STDOUT_FILENO);
		dup2(p[1], STDERR_FILENO);
		close(p[0]);
		execvp(argv[0], argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	for (;;) {
		double left = (probe && !b->started ? started_by : deadline) - now();
		struct pollfd pf = { p[0], POLLIN, 0 };
		ssize_t r;

		if (left <= 0 || poll(&pf, 1, (int)(left * 1000) + 1) == 0) {
			if (now() >= deadline || (probe && !b->started)) {
				b->timed_out = 1;
				break;
			}
			continue;
		}
		r = read(p[0], buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		for (ssize_t i = 0; i < r; i++) {
			if (buf[i] != '\r')
				put(log, &buf[i], 1);
			if (buf[i] == '\n' || n == sizeof(line) - 1) {
				line[n] = '\0';
				console_line(b, line, n);
				n = 0;
			} else {
				line[n++] = buf[i];
			}
		}
	}
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		b->qemu_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	}
	close(p[0]);
}

static int verdict(const char *cmd, const struct boot *b, const struct opts *o,
		   const char *logpath)
{
	if (b->status >= 0) {
		unlink(logpath);
		return b->status;
	}
	if (b->panicked) {
		fprintf(stderr, "%s: the kernel panicked before the command ended; console log: %s\n",
			cmd, logpath);
		return VM_PANIC;
	}
	if (b->timed_out) {
		fprintf(stderr, "%s: timed out after %g s%s; console log: %s\n", cmd, o->timeout,
			b->started ? " (the command was running)" :
				     " (the kernel never reached /init: no initramfs support, or no console on the serial port?)",
			logpath);
		return VM_TIMEOUT;
	}
	fprintf(stderr, "%s: the guest ended without running the command (%s, qemu status %d); console log: %s\n",
		cmd, b->started ? "after /init started" : "/init never started", b->qemu_status,
		logpath);
	return VM_NO_RESULT;
}

static int run(const char *cmd, struct opts *o)
{
	const struct vk_vm_arch *a = NULL;
	char err[512], qemu[PATH_MAX], binary[PATH_MAX], initrd[PATH_MAX], logpath[PATH_MAX];
	struct qemu_argv q;
	struct boot b;
	int kvm, log, status;
	const char *tmpdir = getenv("TMPDIR");

	if (o->arch && !(a = vk_vm_arch_find(o->arch))) {
		vk_vm_arch_names(err, sizeof(err));
		return vk_usage_error(cmd, "unknown --arch '%s' (%s)", o->arch, err);
	}
	if (!a && vk_vm_kernel_arch(o->kernel, &a, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", cmd, err);
		return VK_EXIT_USAGE;
	}
	if (access(o->kernel, R_OK)) {
		fprintf(stderr, "%s: %s: %s\n", cmd, o->kernel, strerror(errno));
		return VK_EXIT_USAGE;
	}
	if (find_on_path(a->qemu, qemu, sizeof(qemu))) {
		fprintf(stderr, "%s: %s is not installed (Debian package %s)\n", cmd, a->qemu,
			a->package);
		return VK_EXIT_USAGE;
	}
	if (find_binary(cmd, o, a, binary, sizeof(binary)))
		return VK_EXIT_USAGE;
	if (vk_vm_check_binary(binary, a, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", cmd, err);
		return VK_EXIT_USAGE;
	}
	status = initramfs(cmd, binary, o, initrd, sizeof(initrd));
	if (status)
		return status;
	kvm = o->accel == 1 || (o->accel == 0 && kvm_possible(a));
	build_argv(&q, qemu, a, o, initrd, kvm);
	if (o->dry_run) {
		for (int i = 0; i < q.n; i++)
			printf("%s%s", i ? " " : "", q.v[i]);
		printf("\n");
		return VK_EXIT_OK;
	}
	snprintf(logpath, sizeof(logpath), "%s/vdsokit-vm-XXXXXX.log",
		 tmpdir && *tmpdir ? tmpdir : "/tmp");
	log = mkstemps(logpath, 4);
	if (log < 0) {
		fprintf(stderr, "%s: cannot make a console log in %s: %s\n", cmd, logpath,
			strerror(errno));
		return VK_EXIT_USAGE;
	}
	if (!kvm)
		fprintf(stderr, "%s: %s under TCG (emulated): figures are not the hardware's\n", cmd,
			a->name);
	boot(q.v, o->timeout, kvm && o->accel == 0, log, &b);
	if (kvm && o->accel == 0 && !b.started) {
		fprintf(stderr, "%s: KVM did not reach /init (%s); booting again under TCG, whose figures are emulated\n",
			cmd, b.timed_out ? "no sign of it within 30 s" : "qemu failed");
		build_argv(&q, qemu, a, o, initrd, 0);
		if (ftruncate(log, 0) == 0)
			lseek(log, 0, SEEK_SET);
		boot(q.v, o->timeout, 0, log, &b);
	}
	close(log);
	return verdict(cmd, &b, o, logpath);
}

int cmd_vm(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "kernel", required_argument, NULL, 'k' },
		{ "arch", required_argument, NULL, 'a' },
		{ "accel", required_argument, NULL, 'A' },
		{ "smp", required_argument, NULL, 'S' },
		{ "memory", required_argument, NULL, 'm' },
		{ "append", required_argument, NULL, 'P' },
		{ "timeout", required_argument, NULL, 't' },
		{ "binary", required_argument, NULL, 'b' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static char *all[] = { "all", NULL };
	struct opts o = { .smp = 2, .memory = 1024, .timeout = 900 };
	unsigned long n;
	int c;

	while ((c = getopt_long(argc, argv, "+k:a:m:t:b:nh", longopts, NULL)) != -1) {
		switch (c) {
		case 'k': o.kernel = optarg; break;
		case 'a': o.arch = optarg; break;
		case 'P': o.append = optarg; break;
		case 'b': o.binary = optarg; break;
		case 'n': o.dry_run = 1; break;
		case 'A':
			if (!strcmp(optarg, "auto") || !strcmp(optarg, "kvm") || !strcmp(optarg, "tcg"))
				o.accel = optarg[0] == 'a' ? 0 : optarg[0] == 'k' ? 1 : 2;
			else
				return vk_usage_error(argv[0], "--accel: '%s' is not auto, kvm or tcg", optarg);
			break;
		case 'S':
			if (parse_ulong(argv[0], "--smp", optarg, 1, 64, &o.smp))
				return VK_EXIT_USAGE;
			break;
		case 'm':
			if (parse_ulong(argv[0], "--memory", optarg, 64, 65536, &o.memory))
				return VK_EXIT_USAGE;
			break;
		case 't':
			if (parse_ulong(argv[0], "--timeout", optarg, 1, 86400, &n))
				return VK_EXIT_USAGE;
			o.timeout = n;
			break;
		case 'h':
			fputs(usage, stdout);
			return VK_EXIT_OK;
		default:
			return vk_bad_option(argv[0]);
		}
	}
	if (!o.kernel)
		return vk_usage_error(argv[0], "--kernel IMAGE is required");
	o.cmd = optind < argc ? argv + optind : all;
	o.ncmd = optind < argc ? argc - optind : 1;
	if (!strcmp(o.cmd[0], "vm"))
		return vk_usage_error(argv[0], "vm inside vm is not a command the guest can run");
	return run(argv[0], &o);
}
