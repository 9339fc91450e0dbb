// SPDX-License-Identifier: MIT
/*
 * fallback's trap: each call in a child under a seccomp filter, so that the
 * first syscall it makes is caught and named (fallback.h).
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/fallback/fallback.h"
#include "core/base/isolate.h"
#include "core/base/sysinfo.h"

/* From <linux/seccomp.h> and <linux/filter.h>, which musl does not ship. */
#define SECCOMP_MODE_FILTER 2
#define SECCOMP_RET_ALLOW 0x7fff0000u
#define SECCOMP_RET_TRAP 0x00030000u
#define BPF_LD_W_ABS 0x20
#define BPF_JEQ_K 0x15
#define BPF_RET_K 0x06
#define DATA_NR 0		/* offsetof(struct seccomp_data, nr) */
#define DATA_ARCH 4		/* offsetof(struct seccomp_data, arch) */
#define AUDIT_ARCH_64BIT 0x80000000u
#define AUDIT_ARCH_LE 0x40000000u
#define TIMEOUT 5.0
/* Each why is what the probe did, said after "the probe". */
#define REFUSED "seccomp refused its filter"
#define NO_ARCH "no seccomp architecture for this ABI"
#define NO_FILTER "the kernel has no seccomp filters (CONFIG_SECCOMP_FILTER)"
#ifndef GRND_NONBLOCK
#define GRND_NONBLOCK 0x0001	/* <sys/random.h>'s, which older libcs lack */
#endif

struct sock_filter {
	unsigned short code;
	unsigned char jt, jf;
	unsigned int k;
};

struct sock_fprog {
	unsigned short len;
	struct sock_filter *filter;
};

/* The syscalls a vDSO function or libc may fall back to, by name. */
static const struct {
	long nr;
	const char *name;
} traps[] = {
	{ SYS_clock_gettime, "clock_gettime" },
	{ SYS_clock_getres, "clock_getres" },
	{ SYS_gettimeofday, "gettimeofday" },
	{ SYS_getcpu, "getcpu" },
#ifdef SYS_getrandom
	{ SYS_getrandom, "getrandom" },
#endif
#ifdef SYS_time
	{ SYS_time, "time" },
#endif
#ifdef SYS_clock_gettime64
	{ SYS_clock_gettime64, "clock_gettime64" },
	{ SYS_clock_getres_time64, "clock_getres_time64" },
#endif
	/* Where a userspace clock may read the time from instead. */
	{ SYS_clock_adjtime, "clock_adjtime" },
#ifdef SYS_adjtimex
	{ SYS_adjtimex, "adjtimex" },
#endif
};

/* What the child does once the call is over: siglongjmp() restores the
 * signal mask (and, under ASan, asks where the signal stack is), then it
 * writes its answer and exits. No clock reading makes these, so they
 * alone pass the filter. */
static const long after[] = { SYS_rt_sigprocmask, SYS_sigaltstack, SYS_write, SYS_exit_group,
			      SYS_exit };

#define NTRAPS ARRAY_SIZE(traps)
#define NAFTER ARRAY_SIZE(after)

static unsigned audit_arch(void)
{
	const struct vk_arch *a = vk_arch_host();
	const uint16_t one = 1;

	if (!a)
		return 0;
	return a->machine | (a->is64 ? AUDIT_ARCH_64BIT : 0) | a->audit |
	       (*(const unsigned char *)&one ? AUDIT_ARCH_LE : 0);
}

const char *vk_fallback_unsupported(void)
{
	if (!audit_arch())
		return NO_ARCH;
	/* No program: EFAULT where the kernel has filters, EINVAL where it
	 * was built without them (sparc's cannot have them). */
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, NULL, 0, 0) && errno == EINVAL)
		return NO_FILTER;
	return NULL;
}

static int install_filter(void)
{
	struct sock_filter f[4 + NAFTER + 2];
	struct sock_fprog prog = { .filter = f };
	unsigned n = 0;

	/* Another ABI's syscalls (int 0x80 from x86_64) are trapped too. */
	f[n++] = (struct sock_filter){ BPF_LD_W_ABS, 0, 0, DATA_ARCH };
	f[n++] = (struct sock_filter){ BPF_JEQ_K, 1, 0, audit_arch() };
	f[n++] = (struct sock_filter){ BPF_RET_K, 0, 0, SECCOMP_RET_TRAP };
	f[n++] = (struct sock_filter){ BPF_LD_W_ABS, 0, 0, DATA_NR };
	for (size_t i = 0; i < NAFTER; i++)
		f[n++] = (struct sock_filter){ BPF_JEQ_K, (unsigned char)(NAFTER - i), 0,
					       (unsigned)after[i] };
	f[n++] = (struct sock_filter){ BPF_RET_K, 0, 0, SECCOMP_RET_TRAP };
	f[n++] = (struct sock_filter){ BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW };
	prog.len = n;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
}

static sigjmp_buf trapped;
static volatile long trapped_nr, trapped_foreign;

/* The first trapped syscall ends the call: what follows it is moot. */
static void on_sigsys(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	trapped_nr = si->si_syscall;
	trapped_foreign = si->si_arch != audit_arch();
	siglongjmp(trapped, 1);
}

struct probe {
	const struct vk_callset *cs;
	enum vk_path p;
	enum vk_func f;
	int clock;
	void *state;		/* getrandom's, on the paths that take one */
	size_t state_len;
};

/* getrandom's state, the documented way, so the vDSO can serve it. */
static void make_state(struct probe *pr)
{
	if (vk_funcs[pr->f].shape == VK_SHAPE_GETRANDOM &&
	    (pr->p == VK_PATH_VDSO || pr->p == VK_PATH_IMPL))
		vk_getrandom_state(pr->cs->fn[pr->p][pr->f].getrandom, &pr->state, &pr->state_len);
}

static void call(const struct probe *pr)
{
	union vk_fn fn = pr->cs->fn[pr->p][pr->f];
	struct vk_kts64 ts;
	struct vk_ktv tv;
	unsigned cpu, node;
	unsigned char buf[16];

	switch (vk_funcs[pr->f].shape) {
	case VK_SHAPE_CLOCK_TS:
		fn.clock(pr->clock, &ts);
		break;
	case VK_SHAPE_TV_TZ:
		fn.tod(&tv, NULL);
		break;
	case VK_SHAPE_TIME:
		fn.time(NULL);
		break;
	case VK_SHAPE_GETCPU:
		fn.getcpu(&cpu, &node, NULL);
		break;
	case VK_SHAPE_GETRANDOM:
		/* Nonblocking: a guest whose CRNG is not ready yet (no cycle
		 * counter for jitter entropy, as on a Cortex-A9) blocks a
		 * blocking call for minutes, and the vDSO takes both alike. */
		fn.getrandom(buf, sizeof(buf), GRND_NONBLOCK, pr->state, pr->state_len);
		break;
	case VK_SHAPE_FUTEX_UNLOCK:
		break;	/* never probed: it has no syscall to fall back to */
	}
}

/*
 * In the child: one warm-up call outside the filter (libc may set up
 * state lazily, with syscalls of its own), then the call under it.
 * Writes the trapped syscall's number, or -1 for none.
 */
static void child(void *ctx, int fd)
{
	struct probe *pr = ctx;
	struct sigaction sa = { .sa_sigaction = on_sigsys, .sa_flags = SA_SIGINFO };
	struct vk_callset loaded;
	long nr[2] = { -1, 0 };	/* the syscall, and whether another ABI's */

	pr->cs = vk_callset_child(pr->cs, VK_PATH_BIT(pr->p), &loaded);
	make_state(pr);
	call(pr);
	sigaction(SIGSYS, &sa, NULL);
	if (install_filter()) {
		nr[0] = -2;
		vk_write_all(fd, nr, sizeof(nr));
		return;
	}
	if (sigsetjmp(trapped, 1) == 0) {
		call(pr);
	} else {
		nr[0] = trapped_nr;
		nr[1] = trapped_foreign;
	}
	vk_write_all(fd, nr, sizeof(nr));
}

static void syscall_name(long nr, long foreign, char *buf, size_t len)
{
	for (size_t i = 0; !foreign && i < NTRAPS; i++) {
		if (traps[i].nr == nr) {
			snprintf(buf, len, "%s", traps[i].name);
			return;
		}
	}
	snprintf(buf, len, "syscall %ld%s", nr, foreign ? " of another ABI" : "");
}

void vk_fallback_probe(const struct vk_callset *cs, enum vk_path p, enum vk_func f,
		       int clock, struct vk_fallback *out)
{
	struct probe pr = { .cs = cs, .p = p, .f = f, .clock = clock };
	struct vk_isolated iso;
	long nr[2];
	int n;

	memset(out, 0, sizeof(*out));
	out->kind = VK_PROBE_DIED;
	if (vk_isolate(child, &pr, TIMEOUT, &iso)) {
		out->kind = VK_PROBE_NOT_RUN;
		vk_isolate_failure(&iso, out->why, sizeof(out->why));
		return;
	}
	if (iso.len != sizeof(nr)) {
		n = iso.signal ? snprintf(out->why, sizeof(out->why), "was ") : 0;
		vk_isolated_describe(&iso, TIMEOUT, out->why + n, sizeof(out->why) - n);
	} else {
		memcpy(nr, iso.data, sizeof(nr));
		if (nr[0] == -2) {
			out->kind = VK_PROBE_NOT_RUN;
			snprintf(out->why, sizeof(out->why), REFUSED);
		} else if (nr[0] == -1) {
			out->kind = VK_USERSPACE;
		} else {
			out->kind = VK_SYSCALL;
			out->nr = nr[0];
			syscall_name(nr[0], nr[1], out->syscall, sizeof(out->syscall));
		}
	}
	vk_isolated_free(&iso);
}

/* The vDSO's clock_gettime, or its time64 entry where the ABI's vDSO has only that one. */
static enum vk_func clock_entry(const struct vk_callset *cs)
{
	if (!cs->fn[VK_PATH_VDSO][VK_FN_CLOCK_GETTIME].p &&
	    cs->fn[VK_PATH_VDSO][VK_FN_CLOCK_GETTIME64].p)
		return VK_FN_CLOCK_GETTIME64;
	return VK_FN_CLOCK_GETTIME;
}

/* A vDSO without the entry reads no clocksource: seen, whatever the table says. */
static int no_clock_entry(const struct vk_callset *cs, enum vk_func f)
{
	const char *why = cs->why[VK_PATH_VDSO][f];

	return !cs->fn[VK_PATH_VDSO][f].p && why && !strcmp(why, VK_WHY_NOT_EXPORTED);
}

void vk_fallback_clocksource(const struct vk_callset *cs, struct vk_sysinfo *si)
{
	const struct vk_arch *arch = vk_arch_host();
	struct vk_fallback fb;
	enum vk_func f = cs ? clock_entry(cs) : VK_FN_CLOCK_GETTIME;
	const char *why;

	if (cs && arch && no_clock_entry(cs, f)) {
		si->cs_vdso = VK_NO;
		si->cs_note = cs->vdso_nulled ?
			"the vDSO exports no clock_gettime: the kernel nulled out the names of "
			"its clock entries (32-bit arm's does at boot without a usable "
			"architected timer), so every clock read makes the syscall" :
			"the vDSO exports no clock_gettime, so every clock read makes the syscall";
		return;
	}
	if (si->cs_vdso != VK_UNKNOWN)
		return;
	why = vk_fallback_unsupported();
	if (why) {
		si->cs_note = !strcmp(why, NO_FILTER) ?
			"not in vdsokit's table, and not measured: " NO_FILTER :
			"not in vdsokit's table, and not measured: no seccomp for this ABI";
		return;
	}
	if (!cs) {
		si->cs_note = "not in vdsokit's table, and not measured: this process has no vDSO";
		return;
	}
	if (!cs->fn[VK_PATH_VDSO][f].p) {
		si->cs_note = "not in vdsokit's table, and not measured: the vDSO has no usable "
			      "clock_gettime";
		return;
	}
	if (arch && (arch->stubs & VK_FN_BIT(f))) {
		si->cs_note = "not in vdsokit's table, and not measured: this ABI's vDSO clock_gettime "
			      "only makes the syscall";
		return;
	}
	vk_fallback_probe(cs, VK_PATH_VDSO, f, CLOCK_MONOTONIC, &fb);
	if (fb.kind == VK_USERSPACE) {
		si->cs_vdso = VK_YES;
		si->cs_note = "measured: the vDSO's clock_gettime(CLOCK_MONOTONIC) stays in userspace";
	} else if (fb.kind == VK_SYSCALL) {
		si->cs_vdso = VK_NO;
		si->cs_note = "measured: the vDSO's clock_gettime(CLOCK_MONOTONIC) makes the syscall";
	} else if (!strcmp(fb.why, REFUSED)) {
		si->cs_note = "not in vdsokit's table, and not measured: seccomp refused the filter";
	} else {
		si->cs_note = "not in vdsokit's table, and the measurement failed: its probe died";
	}
}

/* lib/vdso serves these clocks; the others always go to the kernel. */
static int vdso_serves(int clock)
{
	return clock == CLOCK_REALTIME || clock == CLOCK_MONOTONIC ||
	       clock == CLOCK_MONOTONIC_RAW || clock == CLOCK_REALTIME_COARSE ||
	       clock == CLOCK_MONOTONIC_COARSE || clock == CLOCK_BOOTTIME || clock == CLOCK_TAI;
}

/* Clocks read from the counter, which need a vDSO-capable clocksource. */
static int needs_counter(enum vk_func f, int clock)
{
	if (vk_funcs[f].kind == VK_KIND_TOD)
		return 1;
	if (vk_funcs[f].kind != VK_KIND_GETTIME)
		return 0;
	return clock != CLOCK_REALTIME_COARSE && clock != CLOCK_MONOTONIC_COARSE;
}

const char *vk_fallback_reason(enum vk_path p, enum vk_func f, int clock,
			       enum vk_tristate cs_vdso)
{
	int clock_fn = vk_funcs[f].shape == VK_SHAPE_CLOCK_TS;
	const struct vk_arch *arch = vk_arch_host();

	if (clock_fn && !vdso_serves(clock))
		return "the vDSO does not serve this clock";
	if (p == VK_PATH_VDSO && arch && (arch->stubs & VK_FN_BIT(f)))
		return "this ABI's vDSO entry only makes the syscall";
	if (p == VK_PATH_IMPL)
		return "the implementation makes the syscall";
	if (p == VK_PATH_VSYSCALL)
		return "the kernel emulates every call through the vsyscall page";
	if (needs_counter(f, clock) && cs_vdso == VK_NO)
		return "the current clocksource is not vDSO-capable";
	if (p == VK_PATH_LIBC)
		return "libc makes the syscall itself";
	if (needs_counter(f, clock) && cs_vdso == VK_UNKNOWN)
		return "the clocksource is not known to be vDSO-capable";
	return "unexpected: the vDSO serves this call";
}
