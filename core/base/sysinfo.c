// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "core/base/arch.h"
#include "core/base/sysinfo.h"

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
	for (size_t i = 0; i < sizeof(clocksources) / sizeof(clocksources[0]); i++) {
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

static void read_timens(struct vk_sysinfo *si)
{
	char link[64], line[96], which[16];
	unsigned long long ino;
	long long s, ns;
	ssize_t n;
	FILE *f;

	si->timens = VK_UNKNOWN;
	n = readlink("/proc/self/ns/time", link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		if (sscanf(link, "time:[%llu]", &ino) == 1)
			si->timens = ino == INIT_TIME_NS_INO ? VK_NO : VK_YES;
	}
	f = fopen("/proc/self/timens_offsets", "re");
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

unsigned long long vk_stat_ticks(const char *path)
{
	char buf[512], *p;
	unsigned long long utime = 0, stime = 0;
	FILE *f = fopen(path, "re");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	/* The fields after the name, which may hold spaces and parentheses. */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &utime, &stime) != 2)
		return 0;
	return utime + stime;
}
