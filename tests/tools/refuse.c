// SPDX-License-Identifier: MIT
/*
 * refuse: run a command with named syscalls refused by seccomp, as
 * container runtimes and sandboxes refuse them. This is the launcher
 * issue 47 asks for in tests/tools.
 *
 *   refuse [-e ERRNO] SYSCALL... -- COMMAND [ARG...]
 *
 * Each SYSCALL fails with EPERM (or ERRNO, a number) without entering
 * the kernel's handler; every other syscall runs. PR_SET_NO_NEW_PRIVS
 * first, so that no privilege is needed, and the filter is inherited
 * across fork and exec. A call made with another ABI than this
 * program's (int 0x80 from x86_64) is let through.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* musl's headers have no <linux/...>: there it is built as a stub that
 * says so, as on an architecture it knows no AUDIT_ARCH for. The suite
 * runs it on the host alone; builds.sh only compiles the others. */
#if __has_include(<linux/audit.h>) && __has_include(<linux/seccomp.h>)
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#define HAVE_SECCOMP_HEADERS 1
#endif

#ifndef HAVE_SECCOMP_HEADERS
#define UNSUPPORTED "this libc has no <linux/seccomp.h>"
#elif defined(__x86_64__) && defined(__ILP32__)
#define ARCH AUDIT_ARCH_X86_64	/* x32: its numbers carry __X32_SYSCALL_BIT */
#elif defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__i386__)
#define ARCH AUDIT_ARCH_I386
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#elif defined(__riscv) && __riscv_xlen == 64
#define ARCH AUDIT_ARCH_RISCV64
#else
#define UNSUPPORTED "no AUDIT_ARCH known for this architecture"
#endif

#ifdef UNSUPPORTED
int main(void)
{
	fprintf(stderr, "refuse: %s\n", UNSUPPORTED);
	return 3;
}
#else

#define MAX_REFUSED 32

/* The syscalls vdsokit makes that a sandbox may refuse. */
static const struct {
	const char *name;
	long nr;
} known[] = {
	{ "clock_gettime", SYS_clock_gettime },
	{ "clock_getres", SYS_clock_getres },
	{ "gettimeofday", SYS_gettimeofday },
#ifdef SYS_time
	{ "time", SYS_time },
#endif
	{ "getcpu", SYS_getcpu },
#ifdef SYS_getrandom
	{ "getrandom", SYS_getrandom },
#endif
#ifdef SYS_clock_gettime64
	{ "clock_gettime64", SYS_clock_gettime64 },
	{ "clock_getres_time64", SYS_clock_getres_time64 },
#endif
	{ "sched_setaffinity", SYS_sched_setaffinity },
	{ "getppid", SYS_getppid },
	{ "clone", SYS_clone },
#ifdef SYS_clone3
	{ "clone3", SYS_clone3 },
#endif
#ifdef SYS_fork
	{ "fork", SYS_fork },
#endif
	{ "unshare", SYS_unshare },
	{ "setns", SYS_setns },
	{ "timer_create", SYS_timer_create },
	{ "prctl", SYS_prctl },
#ifdef SYS_wait4
	{ "wait4", SYS_wait4 },
#endif
};

static long number(const char *name)
{
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if (!strcmp(name, known[i].name))
			return known[i].nr;
	}
	return -1;
}

static int usage(void)
{
	fprintf(stderr, "usage: refuse [-e ERRNO] SYSCALL... -- COMMAND [ARG...]\n");
	return 2;
}

/* Refuse nr[0..n) with err; let the rest through. */
static int install(const long *nr, int n, int err)
{
	struct sock_filter f[4 + 2 * MAX_REFUSED + 1];
	struct sock_fprog prog = { .filter = f };
	int k = 0;

	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, arch));
	f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, nr));
	for (int i = 0; i < n; i++) {
		f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr[i], 0, 1);
		f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						      SECCOMP_RET_ERRNO | (err & SECCOMP_RET_DATA));
	}
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog.len = k;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

int main(int argc, char **argv)
{
	long nr[MAX_REFUSED];
	int n = 0, i = 1, err = EPERM;

	if (argc > 2 && !strcmp(argv[1], "-e")) {
		err = atoi(argv[2]);
		i = 3;
	}
	for (; i < argc && strcmp(argv[i], "--"); i++) {
		if (n == MAX_REFUSED)
			return usage();
		nr[n] = number(argv[i]);
		if (nr[n++] < 0) {
			fprintf(stderr, "refuse: unknown syscall '%s'\n", argv[i]);
			return 2;
		}
	}
	if (i + 1 >= argc || err <= 0 || err > 4095)
		return usage();
	if (install(nr, n, err)) {
		perror("refuse: seccomp");
		return 2;
	}
	execvp(argv[i + 1], argv + i + 1);
	fprintf(stderr, "refuse: %s: %s\n", argv[i + 1], strerror(errno));
	return 127;
}
#endif /* UNSUPPORTED */
