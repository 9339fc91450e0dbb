// SPDX-License-Identifier: MIT
/*
 * Gathers the running system's facts (kernel, clocksource and whether the
 * vDSO can read it, time namespace) that explain how its vDSO behaved, for
 * info and every report's envelope (sysinfo.h).
 */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "core/base/array.h"
#include "core/base/arch.h"
#include "core/base/isolate.h"
#include "core/base/sysinfo.h"

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

#define CS_DIR "/sys/devices/system/clocksource/clocksource0/"
/* The inode of the initial time namespace (PROC_TIME_INIT_INO). */
#define INIT_TIME_NS_INO 4026531834ull

/* What is known of each clocksource's vDSO clock mode. */
static const struct {
	const char *name;
	enum vk_tristate vdso;
	const char *note;
} clocksources[] = {
	{ "tsc", VK_YES, "x86 TSC" },
	{ "kvm-clock", VK_YES, "only while the hypervisor marks the pvclock stable" },
	{ "hyperv_clocksource_tsc_page", VK_YES, "Hyper-V TSC page" },
	{ "xen", VK_YES, "only when the hypervisor offers a stable pvclock" },
	{ "arch_sys_counter", VK_YES, "arm/arm64 generic timer" },
	{ "timebase", VK_YES, "powerpc timebase" },
	{ "tod", VK_YES, "s390 TOD clock" },
	{ "riscv_clocksource", VK_YES, "riscv time CSR" },
	{ "MIPS", VK_YES, "mips r4k counter" },
	{ "Constant", VK_YES, "loongarch stable counter" },
	{ "hpet", VK_NO, "the vDSO lost HPET support in Linux 5.6" },
	{ "acpi_pm", VK_NO, "no vDSO clock mode" },
	{ "jiffies", VK_NO, "no vDSO clock mode" },
	{ "refined-jiffies", VK_NO, "no vDSO clock mode" },
	{ "pit", VK_NO, "no vDSO clock mode" },
};

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	for (size_t n = strlen(buf); n && buf[n - 1] == ' '; n--)
		buf[n - 1] = '\0';
	return 0;
}

static void read_clocksource(struct vk_sysinfo *si)
{
	si->cs_vdso = VK_UNKNOWN;
	si->cs_note = "clocksource not known to vdsokit";
	if (read_line(CS_DIR "current_clocksource", si->clocksource, sizeof(si->clocksource))) {
		si->clocksource[0] = '\0';
		si->cs_note = "sysfs does not name the clocksource";
	}
	if (read_line(CS_DIR "available_clocksource", si->clocksources, sizeof(si->clocksources)))
		si->clocksources[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(clocksources); i++) {
		if (strcmp(si->clocksource, clocksources[i].name) == 0) {
			si->cs_vdso = clocksources[i].vdso;
			si->cs_note = clocksources[i].note;
		}
	}
}

/* The clocksource the kernel's command line asks for (the last clocksource=), or "". */
static void asked_clocksource(char *buf, size_t len)
{
	static char cmdline[4096];
	const char *p = cmdline, *at = NULL;

	buf[0] = '\0';
	if (read_line("/proc/cmdline", cmdline, sizeof(cmdline)))
		return;
	while ((p = strstr(p, "clocksource="))) {
		if (p == cmdline || p[-1] == ' ')
			at = p + strlen("clocksource=");
		p++;
	}
	if (at)
		snprintf(buf, len, "%.*s", (int)strcspn(at, " "), at);
}

/*
 * Settled: the clocksource asked for is current, or, where none was
 * asked for, the current one is not one the kernel registers only to
 * replace once it has calibrated the real one (x86's tsc-early).
 */
static int settled(const char *asked, char *cur, size_t len)
{
	size_t n;

	if (read_line(CS_DIR "current_clocksource", cur, len))
		return 1;
	if (*asked)
		return !strcmp(cur, asked);
	n = strlen(cur);
	return n < 6 || strcmp(cur + n - 6, "-early");
}

int vk_clocksource_settle(double max_s, char *why, size_t len)
{
	const struct timespec step = { 0, 50 * 1000 * 1000 };
	char asked[64], cur[64];

	asked_clocksource(asked, sizeof(asked));
	for (double waited = 0; waited < max_s; waited += 0.05) {
		if (settled(asked, cur, sizeof(cur)))
			return 0;
		nanosleep(&step, NULL);
	}
	if (settled(asked, cur, sizeof(cur)))
		return 0;
	snprintf(why, len, "the clocksource was still %s after %g s%s%s", cur, max_s,
		 *asked ? ", not the one clocksource= asks for: " : "", asked);
	return -1;
}

static void read_offsets(struct vk_sysinfo *si)
{
	char line[96], which[16];
	long long s, ns;
	FILE *f = fopen("/proc/self/timens_offsets", "re");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%15s %lld %lld", which, &s, &ns) != 3)
			continue;
		if (strcmp(which, "monotonic") == 0) {
			si->mono_offset[0] = s;
			si->mono_offset[1] = ns;
			si->have_offsets = 1;
		} else if (strcmp(which, "boottime") == 0) {
			si->boot_offset[0] = s;
			si->boot_offset[1] = ns;
			si->have_offsets = 1;
		}
	}
	fclose(f);
}

static void read_timens(struct vk_sysinfo *si)
{
	struct vk_timens_seen *o = &si->timens_seen;
	char link[64];
	ssize_t n;

	o->proc = access("/proc/self/ns", F_OK) == 0;
	o->unshare_err = -1;
	n = readlink("/proc/self/ns/time", link, sizeof(link) - 1);
	o->link_err = n < 0 ? errno : 0;
	if (n >= 0) {
		link[n] = '\0';
		if (sscanf(link, "time:[%llu]", &o->ino) != 1)
			o->link_err = EINVAL;
	}
	read_offsets(si);
	vk_sysinfo_timens_judge(si);
}

static void try_unshare(void *ctx, int fd)
{
	int err = unshare(CLONE_NEWTIME) ? errno : 0;

	(void)ctx;
	vk_write_all(fd, &err, sizeof(err));
}

void vk_sysinfo_try_timens(struct vk_sysinfo *si)
{
	struct vk_isolated out;
	int err = -1;

	if (vk_isolate(try_unshare, NULL, 5, &out) == 0) {
		if (out.len == sizeof(err))
			memcpy(&err, out.data, sizeof(err));
		vk_isolated_free(&out);
	}
	si->timens_seen.unshare_err = err;
	vk_sysinfo_timens_judge(si);
}

/* Where /proc is mounted, /proc/self/ns/time is there with CONFIG_TIME_NS only. */
static int link_says_none(const struct vk_timens_seen *o)
{
	return o->link_err == ENOENT && o->proc;
}

/* Whether the kernel has time namespaces, and the words that say how that is known. */
static enum vk_tristate timens_kernel(const struct vk_timens_seen *o, char *buf, size_t len)
{
	if (!o->link_err)
		return VK_YES;
	if (link_says_none(o)) {
		snprintf(buf, len, "no /proc/self/ns/time: the kernel has no time namespaces "
			 "(CONFIG_TIME_NS)");
		return VK_NO;
	}
	if (!o->proc)
		snprintf(buf, len, "/proc is not mounted");
	else
		snprintf(buf, len, "/proc/self/ns/time: %s", strerror(o->link_err));
	return !o->unshare_err ? VK_YES : o->unshare_err == EINVAL ? VK_NO : VK_UNKNOWN;
}

/* What unshare(CLONE_NEWTIME) said, given what else is known of the kernel. */
static void unshare_said(const struct vk_timens_seen *o, enum vk_tristate kernel, char *buf,
			 size_t len)
{
	const char *u = "unshare(CLONE_NEWTIME) fails with";

	if (o->unshare_err < 0)
		*buf = '\0';
	else if (!o->unshare_err)
		snprintf(buf, len, "a new one can be made here");
	else if (o->unshare_err == EPERM)
		snprintf(buf, len, "%s EPERM: this process lacks CAP_SYS_ADMIN%s", u,
			 kernel == VK_YES ? ", so a new one cannot be made here" :
			 kernel == VK_UNKNOWN ? ", which the kernel checks before whether it has "
						"time namespaces" : "");
	else if (o->unshare_err == EINVAL)
		snprintf(buf, len, "%s EINVAL%s", u, o->link_err && !link_says_none(o) ?
			 ": the kernel has no time namespaces (CONFIG_TIME_NS)" : "");
	else
		snprintf(buf, len, "%s %s", u, strerror(o->unshare_err));
}

void vk_sysinfo_timens_judge(struct vk_sysinfo *si)
{
	const struct vk_timens_seen *o = &si->timens_seen;
	char kernel[96] = "", unshared[192];

	si->timens_kernel = timens_kernel(o, kernel, sizeof(kernel));
	unshare_said(o, si->timens_kernel, unshared, sizeof(unshared));
	if (!o->link_err)
		si->timens = o->ino == INIT_TIME_NS_INO ? VK_NO : VK_YES;
	else
		si->timens = si->timens_kernel == VK_NO ? VK_NO : VK_UNKNOWN;
	si->timens_new = o->unshare_err < 0 ? VK_UNKNOWN : o->unshare_err ? VK_NO : VK_YES;
	snprintf(si->timens_note, sizeof(si->timens_note), "%s%s%s", kernel,
		 *kernel && *unshared ? "; " : "", unshared);
	if (!*si->timens_note)
		snprintf(si->timens_note, sizeof(si->timens_note),
			 "whether a new one can be made was not tried");
}

void vk_sysinfo_read(struct vk_sysinfo *si)
{
	memset(si, 0, sizeof(*si));
	if (uname(&si->uts))
		strcpy(si->uts.release, "unknown");
	read_clocksource(si);
	read_timens(si);
}

const char *vk_build_abi(void)
{
	static char abi[96];
	const struct vk_arch *a = vk_arch_host();

#ifdef __GLIBC__
	snprintf(abi, sizeof(abi), "%s, glibc %s, %zu-bit time_t", a ? a->name : "unknown",
		 gnu_get_libc_version(), 8 * sizeof(time_t));
#else
	snprintf(abi, sizeof(abi), "%s, musl or another libc, %zu-bit time_t",
		 a ? a->name : "unknown", 8 * sizeof(time_t));
#endif
	return abi;
}

int vk_crng_ready(void)
{
	char c;

	/* GRND_NONBLOCK (1): EAGAIN says the CRNG is not ready. */
	return syscall(SYS_getrandom, &c, 1, 1) == 1 || errno != EAGAIN;
}

int vk_cpu_node(int cpu)
{
	char path[64];
	struct dirent *e;
	int node = -1;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	d = opendir(path);
	if (!d)
		return -1;
	while (node < 0 && (e = readdir(d)))
		if (sscanf(e->d_name, "node%d", &node) != 1)
			node = -1;
	closedir(d);
	return node;
}


int vk_time32_missing(void)
{
#if defined(SYS_clock_gettime64) && defined(SYS_clock_gettime)
	long ts[2];

	return syscall(SYS_clock_gettime, CLOCK_MONOTONIC, ts) == -1 && errno == ENOSYS;
#else
	return 0;
#endif
}

int vk_kernel_before(int major, int minor)
{
	struct utsname u;
	int ma, mi;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return 0;
	return ma < major || (ma == major && mi < minor);
}

const char *vk_threads_refused(void)
{
#if defined(__GLIBC__) && defined(SYS_futex_time64) && defined(SYS_futex)
	int word = 0;

	/* FUTEX_WAKE (1) of nobody: what glibc's waits and wakes call. */
	if (syscall(SYS_futex, &word, 1, 1, NULL, NULL, 0) == -1 && errno == ENOSYS)
		return "glibc waits for threads with the time32 futex syscall, which this "
		       "kernel lacks (CONFIG_COMPAT_32BIT_TIME is off)";
#endif
	return NULL;
}
