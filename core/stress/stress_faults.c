// SPDX-License-Identifier: MIT
/*
 * The faults stress can inject, by --faults name, and the machine's state
 * saved before them and restored after (stress.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/timex.h>
#include <time.h>
#include <unistd.h>

#include "core/call/call.h"
#include "core/stress/stress_clock.h"
#include "core/stress/stress_faults.h"
#include "core/stress/stress_judge.h"

#define CS_DIR "/sys/devices/system/clocksource/clocksource0/"

static const char *const fault_names[VK_NFAULTS] = {
	[VK_FAULT_CLOCKSOURCE] = "clocksource",
	[VK_FAULT_SETTIME] = "settime",
	[VK_FAULT_SLEW] = "slew",
	[VK_FAULT_HOTPLUG] = "hotplug",
	[VK_FAULT_PAUSE] = "pause",
	[VK_FAULT_TIMENS] = "timens",
	[VK_FAULT_LEAP] = "leap",
	[VK_FAULT_TIMEZONE] = "timezone",
};

const char *vk_fault_name(enum vk_fault_kind k)
{
	return fault_names[k];
}

/* Read a one-line file into buf without its newline; -1 if unreadable. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok = f && fgets(buf, len, f);

	if (f)
		fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static int write_str(const char *path, const char *s, char *err, size_t len)
{
	FILE *f = fopen(path, "w");

	if (f && fputs(s, f) >= 0 && fclose(f) == 0)
		return 0;
	snprintf(err, len, "%s: %s", path, strerror(errno));
	if (f)
		fclose(f);
	return -1;
}

/* Whether word is one of the space-separated words of line. */
static int has_word(const char *line, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = line; (p = strstr(p, word)); p += n) {
		if ((p == line || p[-1] == ' ') && (!p[n] || p[n] == ' ' || p[n] == '\n'))
			return 1;
	}
	return 0;
}

/* Whether the kernel's command line says this is vdsokit vm's guest. */
static int in_vm(void)
{
	char line[4096];

	return read_line("/proc/cmdline", line, sizeof(line)) == 0 && has_word(line, "vdsokit.vm=1");
}

const char *vk_stress_refusal(int accepted)
{
	if (accepted || in_vm())
		return NULL;
	return "it changes this machine's clock, so it runs only inside 'vdsokit vm' "
	       "(vdsokit.vm=1 on the kernel's command line) or with --i-accept-clock-changes";
}

int vk_stress_faults_parse(const char *list, unsigned *mask)
{
	size_t len;
	int k;

	*mask = 0;
	for (const char *p = list; *p; p += len + (p[len] == ',')) {
		len = strcspn(p, ",");
		if (len == 3 && !strncmp(p, "all", 3)) {
			*mask |= (1u << VK_NFAULTS) - 1;
			continue;
		}
		if (len == 4 && !strncmp(p, "none", 4))
			continue;
		for (k = 0; k < VK_NFAULTS; k++) {
			if (strlen(fault_names[k]) == len && !strncmp(p, fault_names[k], len))
				break;
		}
		if (k == VK_NFAULTS)
			return -1;
		*mask |= 1u << k;
	}
	return 0;
}

static void sleep_s(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s, .tv_nsec = (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int cpu_online(int cpu)
{
	char path[64], v[8];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return read_line(path, v, sizeof(v)) == 0 && v[0] == '1';
}

static uint64_t online_cpus(void)
{
	uint64_t m = 0;

	for (int c = 1; c < 64; c++)
		m |= (uint64_t)cpu_online(c) << c;
	return m;
}

static int set_online(int64_t cpu, int on, char *err, size_t len)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%lld/online", (long long)cpu);
	return write_str(path, on ? "1" : "0", err, len);
}

int vk_stress_save(struct vk_stress_saved *s, unsigned mask, char *err, size_t len)
{
	struct timex tx = { 0 };

	if (read_line(CS_DIR "current_clocksource", s->clocksource, sizeof(s->clocksource)))
		s->clocksource[0] = 0;
	if (adjtimex(&tx) < 0) {
		snprintf(err, len, "adjtimex: %s", strerror(errno));
		return -1;
	}
	s->freq = tx.freq;
	s->tick = tx.tick;
	s->status = tx.status;
	s->tai = tx.tai;
	s->faults = mask;
	if ((mask & (1u << VK_FAULT_TIMEZONE)) && VK_HAVE_TZ_SYSCALLS && vk_stress_get_tz(s->tz, err, len))
		return -1;
	s->online = online_cpus();
	s->mono_ns = vk_stress_now_ns(CLOCK_MONOTONIC);
	s->real_ns = vk_stress_now_ns(CLOCK_REALTIME);
	return 0;
}

static int set_freq(long freq, char *err, size_t len)
{
	return vk_stress_adjust((struct timex){ .modes = ADJ_FREQUENCY, .freq = freq }, err, len,
				"ADJ_FREQUENCY, %ld", freq);
}

static int set_tick(long tick, char *err, size_t len)
{
	return vk_stress_adjust((struct timex){ .modes = ADJ_TICK, .tick = tick }, err, len,
				"ADJ_TICK, %ld", tick);
}

/* The status after REALTIME: setting it marks the clock unsynchronized. */
int vk_stress_restore(const struct vk_stress_saved *s, char *err, size_t len)
{
	int bad = set_freq(s->freq, err, len) | set_tick(s->tick, err, len);

	if (s->clocksource[0])
		bad |= write_str(CS_DIR "current_clocksource", s->clocksource, err, len);
	for (int c = 1; c < 64; c++) {
		if ((s->online >> c & 1) && !cpu_online(c))
			bad |= set_online(c, 1, err, len);
	}
	bad |= vk_stress_realtime_back(s->real_ns, s->mono_ns, err, len);
	if (s->faults & (1u << VK_FAULT_LEAP))
		bad |= vk_stress_adjust((struct timex){ .modes = ADJ_STATUS | ADJ_TAI, .status = s->status,
						       .constant = s->tai }, err, len,
					"ADJ_STATUS | ADJ_TAI, %#x, %d", s->status, s->tai);
	if (s->faults & (1u << VK_FAULT_TIMEZONE))
		bad |= vk_stress_set_tz(s->tz, err, len);
	return bad;
}

static int add(struct vk_fault_step *s, int n, int max, enum vk_fault_kind k,
	       enum vk_fault_op op, int64_t arg, const char *name)
{
	if (n >= max)
		return n;
	memset(&s[n], 0, sizeof(s[n]));
	s[n].kind = k;
	s[n].op = op;
	s[n].arg = arg;
	snprintf(s[n].name, sizeof(s[n].name), "%s", name);
	return n + 1;
}

static int add_rate(struct vk_fault_step *s, int n, int max, enum vk_fault_op op, int64_t arg,
		    double ppm, const char *name)
{
	n = add(s, n, max, VK_FAULT_SLEW, op, arg, name);
	s[n - 1].ppm = ppm;
	return n;
}

static int add_clocksources(struct vk_fault_step *s, int n, int max,
			    const struct vk_stress_saved *saved)
{
	char list[512], name[40];
	int first = n;

	if (read_line(CS_DIR "available_clocksource", list, sizeof(list)) || !saved->clocksource[0]) {
		n = add(s, n, max, VK_FAULT_CLOCKSOURCE, VK_OP_NONE, 0, "clocksource");
		snprintf(s[n - 1].skip, sizeof(s[n - 1].skip), "no clocksource in sysfs");
		return n;
	}
	for (char *sp, *w = strtok_r(list, " ", &sp); w; w = strtok_r(NULL, " ", &sp)) {
		snprintf(name, sizeof(name), "clocksource:%.27s", w);
		n = add(s, n, max, VK_FAULT_CLOCKSOURCE, VK_OP_CLOCKSOURCE, 0, name);
		snprintf(s[n - 1].cs, sizeof(s[n - 1].cs), "%s", w);
	}
	/* And back to the one it found. */
	snprintf(name, sizeof(name), "clocksource:%.20s(back)", saved->clocksource);
	n = add(s, n, max, VK_FAULT_CLOCKSOURCE, VK_OP_CLOCKSOURCE, 0, name);
	snprintf(s[n - 1].cs, sizeof(s[n - 1].cs), "%s", saved->clocksource);
	return n > first ? n : first;
}

static int add_settime(struct vk_fault_step *s, int n, int max)
{
	n = add(s, n, max, VK_FAULT_SETTIME, VK_OP_SETTIMEOFDAY, 3600, "settimeofday:+3600s");
	n = add(s, n, max, VK_FAULT_SETTIME, VK_OP_SETTIMEOFDAY, -7200, "settimeofday:-7200s");
	n = add(s, n, max, VK_FAULT_SETTIME, VK_OP_CLOCK_SETTIME, 3600, "clock_settime:+3600s");
	/* 0.1 s before 2^31 s: the run crosses it. */
	n = add(s, n, max, VK_FAULT_SETTIME, VK_OP_SETTIME_AT, (1LL << 31) * VK_NSEC - VK_NSEC / 10,
		"clock_settime:2^31s");
	if (VK_TIME32_ABI)
		snprintf(s[n - 1].skip, sizeof(s[n - 1].skip), "a 32-bit time_t ends there");
	return add(s, n, max, VK_FAULT_SETTIME, VK_OP_REALTIME_BACK, 0, "clock_settime:back");
}

/* MONOTONIC's rate against MONOTONIC_RAW with tick us per 1/USER_HZ s at
 * the saved frequency: tick * USER_HZ us a second, where 1e6 is 0 ppm. */
static double tick_ppm(const struct vk_stress_saved *saved, long tick)
{
	return (double)tick * sysconf(_SC_CLK_TCK) - 1e6 + saved->freq / 65536.0;
}

static int add_slew(struct vk_fault_step *s, int n, int max, const struct vk_stress_saved *saved)
{
	/* 500 ppm of a second, a tick at a time (5 us at USER_HZ 100), as the
	 * kernel's adjtick selftest steps it. */
	long step = 500 / sysconf(_SC_CLK_TCK);
	char name[40];

	n = add_rate(s, n, max, VK_OP_FREQ, 500L << 16, 500, "adjtimex:freq+500ppm");
	n = add_rate(s, n, max, VK_OP_FREQ, -(500L << 16), -500, "adjtimex:freq-500ppm");
	n = add_rate(s, n, max, VK_OP_FREQ, saved->freq, saved->freq / 65536.0, "adjtimex:freq(back)");
	step = step > 0 ? step : 1;
	snprintf(name, sizeof(name), "adjtimex:tick+%ldus", step);
	n = add_rate(s, n, max, VK_OP_TICK, saved->tick + step, tick_ppm(saved, saved->tick + step), name);
	snprintf(name, sizeof(name), "adjtimex:tick-%ldus", step);
	n = add_rate(s, n, max, VK_OP_TICK, saved->tick - step, tick_ppm(saved, saved->tick - step), name);
	n = add_rate(s, n, max, VK_OP_TICK, saved->tick, tick_ppm(saved, saved->tick), "adjtimex:tick(back)");
	n = add(s, n, max, VK_FAULT_SLEW, VK_OP_SETOFFSET, 10, "adjtimex:setoffset+10s");
	return add(s, n, max, VK_FAULT_SLEW, VK_OP_SETOFFSET, -10, "adjtimex:setoffset-10s");
}

/* The highest CPU that can go offline, or -1 and why not. */
static int hotplug_cpu(char *why, size_t len)
{
	char path[64];
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 2) {
		snprintf(why, len, "only one CPU online");
		return -1;
	}
	for (long c = sysconf(_SC_NPROCESSORS_CONF) - 1; c > 0; c--) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%ld/online", c);
		if (access(path, W_OK) == 0)
			return (int)c;
	}
	snprintf(why, len, "no CPU can be taken offline (no cpuN/online in sysfs)");
	return -1;
}

static int add_hotplug(struct vk_fault_step *s, int n, int max)
{
	char why[96], name[40];
	int cpu = hotplug_cpu(why, sizeof(why));

	if (cpu < 0) {
		n = add(s, n, max, VK_FAULT_HOTPLUG, VK_OP_NONE, 0, "hotplug");
		snprintf(s[n - 1].skip, sizeof(s[n - 1].skip), "%s", why);
		return n;
	}
	snprintf(name, sizeof(name), "cpu%d:offline", cpu);
	n = add(s, n, max, VK_FAULT_HOTPLUG, VK_OP_CPU_OFFLINE, cpu, name);
	snprintf(name, sizeof(name), "cpu%d:online", cpu);
	return add(s, n, max, VK_FAULT_HOTPLUG, VK_OP_CPU_ONLINE, cpu, name);
}

static int add_pause(struct vk_fault_step *s, int n, int max, int pause)
{
	char name[40];

	snprintf(name, sizeof(name), "vm-pause:%ds", pause);
	n = add(s, n, max, VK_FAULT_PAUSE, VK_OP_PAUSE, pause, name);
	if (!in_vm())
		snprintf(s[n - 1].skip, sizeof(s[n - 1].skip),
			 "only vdsokit vm's host can pause the machine");
	return n;
}

/*
 * The first timezone set since boot with no time also steps REALTIME by
 * its minutes west (the kernel takes the RTC to keep local time): the
 * first has none, so that only the timezone changes.
 */
static const int timezones[][2] = { { 0, 1 }, { -600, 0 }, { 300, 1 }, { -900, 0 }, { 900, 3 } };

static int add_timezone(struct vk_fault_step *s, int n, int max, const struct vk_stress_saved *saved)
{
	char name[40];

	for (size_t i = 0; i <= sizeof(timezones) / sizeof(timezones[0]); i++) {
		const int *tz = i < sizeof(timezones) / sizeof(timezones[0]) ? timezones[i] : saved->tz;

		if (tz == saved->tz)
			snprintf(name, sizeof(name), "timezone:back");
		else
			snprintf(name, sizeof(name), "timezone:%+dmin,dst%d", tz[0], tz[1]);
		n = add(s, n, max, VK_FAULT_TIMEZONE, VK_OP_TIMEZONE, tz[0], name);
		s[n - 1].dsttime = tz[1];
		if (!VK_HAVE_TZ_SYSCALLS)
			snprintf(s[n - 1].skip, sizeof(s[n - 1].skip),
				 "this ABI has no gettimeofday or settimeofday syscall");
	}
	return n;
}

int vk_fault_steps(unsigned mask, int pause, const struct vk_stress_saved *saved,
		   struct vk_fault_step *s, int max)
{
	int n = add(s, 0, max, VK_NFAULTS, VK_OP_NONE, 0, "none");

	if (mask & (1u << VK_FAULT_CLOCKSOURCE))
		n = add_clocksources(s, n, max, saved);
	if (mask & (1u << VK_FAULT_SETTIME))
		n = add_settime(s, n, max);
	if (mask & (1u << VK_FAULT_TIMEZONE))
		n = add_timezone(s, n, max, saved);
	if (mask & (1u << VK_FAULT_LEAP))
		n = add(s, n, max, VK_FAULT_LEAP, VK_OP_LEAP, 0, "leap:23:59:60");
	if (mask & (1u << VK_FAULT_SLEW))
		n = add_slew(s, n, max, saved);
	if (mask & (1u << VK_FAULT_HOTPLUG))
		n = add_hotplug(s, n, max);
	if (mask & (1u << VK_FAULT_TIMENS))
		n = add(s, n, max, VK_FAULT_TIMENS, VK_OP_TIMENS, 0, "timens:enter");
	if (mask & (1u << VK_FAULT_PAUSE))
		n = add_pause(s, n, max, pause);
	return n;
}

static int step_realtime(int64_t sec, int tod, char *err, size_t len)
{
	int64_t ns = vk_stress_now_ns(CLOCK_REALTIME) + sec * VK_NSEC;
	struct timeval tv = { .tv_sec = ns / VK_NSEC, .tv_usec = ns % VK_NSEC / 1000 };

	if (!tod)
		return vk_stress_set_realtime(ns, err, len);
	if (settimeofday(&tv, NULL) == 0)
		return 0;
	snprintf(err, len, "settimeofday: %s", strerror(errno));
	return -1;
}

/*
 * MONOTONIC, and MONOTONIC_RAW at the same instant (in *raw): MONOTONIC
 * read between two MONOTONIC_RAW reads, the tightest of 16 brackets (its
 * width in *bracket), at its middle, so a preemption in one bracket does
 * not count.
 */
static int64_t mono_at(int64_t *raw, int64_t *bracket)
{
	int64_t best = INT64_MAX, mono = 0;

	*raw = 0;
	for (int i = 0; i < 16; i++) {
		int64_t r1 = vk_stress_now_ns(CLOCK_MONOTONIC_RAW), m = vk_stress_now_ns(CLOCK_MONOTONIC);
		int64_t r2 = vk_stress_now_ns(CLOCK_MONOTONIC_RAW);

		if (r2 - r1 < best) {
			best = r2 - r1;
			*raw = r1 + best / 2;
			mono = m;
		}
	}
	*bracket = best;
	return mono;
}

/* The kernel applies a new frequency at its next tick: wait a few. */
#define RATE_SETTLE 0.1
/* Shorter than this, brackets of a few us would blur the tolerance: a
 * tenth of the slew, far above what they err by over the step, far below
 * a clock that ignores the slew (500 ppm off). */
#define RATE_MIN_SECONDS 0.5

int vk_fault_rate(const struct vk_fault_step *s, double seconds, char *err, size_t len)
{
	double want = s->ppm, got, off;
	int64_t raw0, raw1, mono0, mono1, b0, b1;
	int bad;

	if (seconds - RATE_SETTLE < RATE_MIN_SECONDS) {
		snprintf(err, len, "MONOTONIC's rate not tested, the step too short to measure it (%.2f s)",
			 seconds);
		sleep_s(seconds);
		return -1;
	}
	sleep_s(RATE_SETTLE);
	mono0 = mono_at(&raw0, &b0);
	sleep_s(seconds - RATE_SETTLE);
	mono1 = mono_at(&raw1, &b1);
	got = vk_stress_rate_ppm(mono1 - mono0, raw1 - raw0);
	off = vk_stress_rate_uncertainty_ppm(b0, b1, raw1 - raw0);
	bad = vk_stress_rate_judge(want, got, off);
	snprintf(err, len, "%sMONOTONIC ran %+.1f ppm against MONOTONIC_RAW, adjtimex's %s %+.1f ppm, known to +-%.1f ppm (its ends read within %.1f and %.1f us)",
		 bad < 0 ? "MONOTONIC's rate not tested, its uncertainty wider than the 50 ppm tolerance: " : "",
		 got, s->op == VK_OP_TICK ? "tick" : "frequency", want, off, b0 / 1e3, b1 / 1e3);
	return bad > 0 ? 1 : bad;
}

/* The RTC's seconds: qemu's runs on the host's time, also while paused. */
static int64_t rtc_seconds(void)
{
	char v[32];

	return read_line("/sys/class/rtc/rtc0/since_epoch", v, sizeof(v)) ? -1 : strtoll(v, NULL, 10);
}

/* How long the guest waits for its host to pause it, asking again every
 * ASK_NS in case a kernel message on the console broke its line. */
#define PAUSE_WAIT_NS (30 * VK_NSEC)
#define ASK_NS (10 * VK_NSEC)

/* One write, on a line of its own. */
static int ask_pause(int fd, int64_t sec)
{
	char line[48];
	int n = snprintf(line, sizeof(line), "\nvdsokit-vm:pause %lld\n", (long long)sec);

	return write(fd, line, n) == n ? 0 : -1;
}

/*
 * Ask vdsokit vm's host, on the console it reads, to stop the guest for
 * sec seconds, and see that it did: the RTC moved on sec more than
 * MONOTONIC, give or take its 1 s resolution. MONOTONIC may stand still
 * across a pause (qemu's clocks do) but never outrun the RTC.
 */
static int pause_vm(int64_t sec, char *err, size_t len)
{
	int64_t r0 = rtc_seconds(), m0 = vk_stress_now_ns(CLOCK_MONOTONIC);
	int64_t rtc = 0, mono = 0, asked = -ASK_NS;
	int fd = open("/dev/console", O_WRONLY | O_NOCTTY | O_CLOEXEC), seen = -1;

	if (r0 < 0 || fd < 0) {
		snprintf(err, len, "%s", r0 < 0 ? "no RTC to see the pause by (/sys/class/rtc/rtc0)" :
						  "no /dev/console to ask the host on");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while (mono < PAUSE_WAIT_NS && seen < 0) {
		if (mono - asked >= ASK_NS) {
			if (ask_pause(fd, sec))
				break;
			asked = mono;
		}
		usleep(100000);
		rtc = rtc_seconds() - r0;
		mono = vk_stress_now_ns(CLOCK_MONOTONIC) - m0;
		seen = vk_stress_pause_judge(sec, rtc, mono);
	}
	close(fd);
	if (seen < 0) {
		snprintf(err, len, "the host did not pause the guest within %lld s of asking",
			 PAUSE_WAIT_NS / VK_NSEC);
		return -1;
	}
	if (seen) {
		snprintf(err, len, "MONOTONIC moved on %.3f s across the pause, the RTC only %lld s",
			 mono / 1e9, (long long)rtc);
		return 1;
	}
	snprintf(err, len, "paused by the host: the RTC moved on %lld s, MONOTONIC %.3f s",
		 (long long)rtc, mono / 1e9);
	return 0;
}

/* The vDSO keeps its own copy of the timezone, which must follow. */
int vk_fault_timezone(const struct vk_callset *cs, unsigned paths, const struct vk_fault_step *s,
		      char *err, size_t len)
{
	const int tz[2] = { (int)s->arg, s->dsttime };
	size_t n = snprintf(err, len, "tz {%d, %d} read back on", tz[0], tz[1]);

	for (int p = 0; p < VK_NPATHS; p++) {
		vk_tod_fn tod = cs->fn[p][VK_FN_GETTIMEOFDAY].tod;
		int got[2] = { ~0, ~0 };
		struct vk_ktv tv;

		if (!tod || !(p == VK_PATH_SYSCALL || (paths & VK_PATH_BIT(p))))
			continue;
		if (tod(&tv, got) || got[0] != tz[0] || got[1] != tz[1]) {
			snprintf(err, len, "settimeofday set tz {%d, %d}, %s's gettimeofday read {%d, %d}",
				 tz[0], tz[1], vk_path_name(p), got[0], got[1]);
			return 1;
		}
		if (n < len)
			n += snprintf(err + n, len - n, " %s", vk_path_name(p));
	}
	return 0;
}

int vk_fault_apply(const struct vk_stress *st, const struct vk_fault_step *s,
		   const struct vk_stress_saved *saved, char *err, size_t len)
{
	switch (s->op) {
	case VK_OP_NONE:
		return 0;
	case VK_OP_CLOCKSOURCE:
		return write_str(CS_DIR "current_clocksource", s->cs, err, len);
	case VK_OP_SETTIMEOFDAY:
	case VK_OP_CLOCK_SETTIME:
		return step_realtime(s->arg, s->op == VK_OP_SETTIMEOFDAY, err, len);
	case VK_OP_SETTIME_AT:
		return vk_stress_set_realtime(s->arg, err, len);
	case VK_OP_REALTIME_BACK:
		return vk_stress_realtime_back(saved->real_ns, saved->mono_ns, err, len);
	case VK_OP_FREQ:
		return set_freq((long)s->arg, err, len);
	case VK_OP_TICK:
		return set_tick((long)s->arg, err, len);
	case VK_OP_SETOFFSET:
		return vk_stress_adjust((struct timex){ .modes = ADJ_SETOFFSET | ADJ_NANO,
							.time = { .tv_sec = s->arg } },
					err, len, "ADJ_SETOFFSET, %llds", (long long)s->arg);
	case VK_OP_CPU_OFFLINE:
	case VK_OP_CPU_ONLINE:
		return set_online(s->arg, s->op == VK_OP_CPU_ONLINE, err, len);
	case VK_OP_PAUSE:
		return pause_vm(s->arg, err, len);
	case VK_OP_TIMENS:
		return vk_stress_timens(st, err, len);
	case VK_OP_LEAP:
		return vk_fault_leap_arm(err, len);
	case VK_OP_TIMEZONE:
		return vk_stress_set_tz((int[2]){ (int)s->arg, s->dsttime }, err, len);
	}
	return 0;
}
