// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timex.h>
#include <time.h>
#include <unistd.h>

#include "core/call/call.h"
#include "core/stress/stress_faults.h"
#include "core/stress/stress_judge.h"

#define CS_DIR "/sys/devices/system/clocksource/clocksource0/"
#define NSEC 1000000000LL

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

static int64_t now_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * NSEC + ts.tv_nsec;
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

#if defined(SYS_gettimeofday) && defined(SYS_settimeofday)
#define HAVE_TZ_SYSCALLS 1
#else
#define HAVE_TZ_SYSCALLS 0
#endif

/* The kernel's timezone, by the syscall: libc may not pass tz (musl). */
static int get_tz(int tz[2], char *err, size_t len)
{
#ifdef SYS_gettimeofday
	struct vk_ktv tv;

	if (syscall(SYS_gettimeofday, &tv, tz) == 0)
		return 0;
	snprintf(err, len, "gettimeofday: %s", strerror(errno));
#else
	(void)tz;
	snprintf(err, len, "this ABI has no gettimeofday syscall");
#endif
	return -1;
}

/* settimeofday(NULL, tz), by the syscall: musl's ignores tz. */
static int set_tz(const int tz[2], char *err, size_t len)
{
#ifdef SYS_settimeofday
	if (syscall(SYS_settimeofday, NULL, tz) == 0)
		return 0;
	snprintf(err, len, "settimeofday(NULL, {%d, %d}): %s", tz[0], tz[1], strerror(errno));
#else
	snprintf(err, len, "settimeofday(NULL, {%d, %d}): this ABI has no settimeofday syscall",
		 tz[0], tz[1]);
#endif
	return -1;
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
	if ((mask & (1u << VK_FAULT_TIMEZONE)) && HAVE_TZ_SYSCALLS && get_tz(s->tz, err, len))
		return -1;
	s->online = online_cpus();
	s->mono_ns = now_ns(CLOCK_MONOTONIC);
	s->real_ns = now_ns(CLOCK_REALTIME);
	return 0;
}

static int set_realtime(int64_t ns, char *err, size_t len)
{
	struct timespec ts = { .tv_sec = ns / NSEC, .tv_nsec = ns % NSEC };

	if (ns >= 0 && clock_settime(CLOCK_REALTIME, &ts) == 0)
		return 0;
	snprintf(err, len, "clock_settime(CLOCK_REALTIME, %lld ns): %s", (long long)ns,
		 ns < 0 ? "negative" : strerror(errno));
	return -1;
}

static int realtime_back(const struct vk_stress_saved *s, char *err, size_t len)
{
	return set_realtime(s->real_ns + now_ns(CLOCK_MONOTONIC) - s->mono_ns, err, len);
}

static int set_freq(long freq, char *err, size_t len)
{
	struct timex tx = { .modes = ADJ_FREQUENCY, .freq = freq };

	if (adjtimex(&tx) >= 0)
		return 0;
	snprintf(err, len, "adjtimex(ADJ_FREQUENCY, %ld): %s", freq, strerror(errno));
	return -1;
}

static int set_tick(long tick, char *err, size_t len)
{
	struct timex tx = { .modes = ADJ_TICK, .tick = tick };

	if (adjtimex(&tx) >= 0)
		return 0;
	snprintf(err, len, "adjtimex(ADJ_TICK, %ld): %s", tick, strerror(errno));
	return -1;
}

static int set_status(int status, char *err, size_t len)
{
	struct timex tx = { .modes = ADJ_STATUS, .status = status };

	if (adjtimex(&tx) >= 0)
		return 0;
	snprintf(err, len, "adjtimex(ADJ_STATUS, %#x): %s", status, strerror(errno));
	return -1;
}

static int set_tai(int tai, char *err, size_t len)
{
	struct timex tx = { .modes = ADJ_TAI, .constant = tai };

	if (adjtimex(&tx) >= 0)
		return 0;
	snprintf(err, len, "adjtimex(ADJ_TAI, %d): %s", tai, strerror(errno));
	return -1;
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
	bad |= realtime_back(s, err, len);
	if (s->faults & (1u << VK_FAULT_LEAP))
		bad |= set_status(s->status, err, len) | set_tai(s->tai, err, len);
	if (s->faults & (1u << VK_FAULT_TIMEZONE))
		bad |= set_tz(s->tz, err, len);
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
	n = add(s, n, max, VK_FAULT_SETTIME, VK_OP_SETTIME_AT, (1LL << 31) * NSEC - NSEC / 10,
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
		if (!HAVE_TZ_SYSCALLS)
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
	int64_t ns = now_ns(CLOCK_REALTIME) + sec * NSEC;
	struct timeval tv = { .tv_sec = ns / NSEC, .tv_usec = ns % NSEC / 1000 };

	if (!tod)
		return set_realtime(ns, err, len);
	if (settimeofday(&tv, NULL) == 0)
		return 0;
	snprintf(err, len, "settimeofday: %s", strerror(errno));
	return -1;
}

static int set_offset(int64_t sec, char *err, size_t len)
{
	struct timex tx = { .modes = ADJ_SETOFFSET | ADJ_NANO, .time = { .tv_sec = sec } };

	if (adjtimex(&tx) >= 0)
		return 0;
	snprintf(err, len, "adjtimex(ADJ_SETOFFSET, %llds): %s", (long long)sec, strerror(errno));
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

	for (int i = 0; i < 16; i++) {
		int64_t r1 = now_ns(CLOCK_MONOTONIC_RAW), m = now_ns(CLOCK_MONOTONIC);
		int64_t r2 = now_ns(CLOCK_MONOTONIC_RAW);

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
#define PAUSE_WAIT_NS (30 * NSEC)
#define ASK_NS (10 * NSEC)

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
	int64_t r0 = rtc_seconds(), m0 = now_ns(CLOCK_MONOTONIC), rtc = 0, mono = 0, asked = -ASK_NS;
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
		mono = now_ns(CLOCK_MONOTONIC) - m0;
		seen = vk_stress_pause_judge(sec, rtc, mono);
	}
	close(fd);
	if (seen < 0) {
		snprintf(err, len, "the host did not pause the guest within %lld s of asking",
			 PAUSE_WAIT_NS / NSEC);
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

/*
 * The leap second: the last one inserted, 2016-12-31 23:59:60 UTC, when
 * TAI - UTC went from 36 s to 37 s. The kernel inserts one at whichever
 * midnight follows STA_INS, stepping REALTIME back 1 s at its first tick
 * in 00:00:00, and adjtimex says TIME_INS, TIME_OOP in the second
 * repeated, then TIME_WAIT (kernel/time/ntp.c, second_overflow()).
 */
#define LEAP_MIDNIGHT 1483228800LL
#define LEAP_TAI 36
#define LEAP_LEAD_NS (2 * NSEC)		/* REALTIME set this long before */
#define LEAP_WAIT_NS (10 * NSEC)	/* after the midnight, a leap not made */

/*
 * Setting the time leaves the maximum error at its limit, so the next
 * second marks the clock unsynchronized and adjtimex says TIME_ERROR
 * instead of the leap's states: an error of 0, growing 500 us a second.
 */
static int set_maxerror(char *err, size_t len)
{
	struct timex tx = { .modes = ADJ_MAXERROR | ADJ_ESTERROR };

	if (adjtimex(&tx) >= 0)
		return 0;
	snprintf(err, len, "adjtimex(ADJ_MAXERROR, 0): %s", strerror(errno));
	return -1;
}

/* REALTIME just before the midnight, TAI - UTC 36 s, STA_INS alone (STA_PLL
 * cleared, as it holds the leap off): in that order, as setting the time
 * clears the status. */
static int arm_leap(char *err, size_t len)
{
	struct timex tx = { 0 };

	if (set_realtime(LEAP_MIDNIGHT * NSEC - LEAP_LEAD_NS, err, len) || set_tai(LEAP_TAI, err, len) ||
	    set_status(STA_INS, err, len) || set_maxerror(err, len))
		return -1;
	adjtimex(&tx);
	if (!(tx.status & STA_INS) || tx.tai != LEAP_TAI) {
		snprintf(err, len, "adjtimex kept status %#x, TAI %d after STA_INS, TAI %d were set",
			 tx.status, tx.tai, LEAP_TAI);
		return -1;
	}
	return 0;
}

/* REALTIME - MONOTONIC and TAI - MONOTONIC, read between two MONOTONIC
 * reads, the tightest of 16: each known to *within ns. */
struct offsets {
	int64_t real, tai, within;
};

static struct offsets offsets_now(void)
{
	struct offsets o = { .within = INT64_MAX };

	for (int i = 0; i < 16; i++) {
		int64_t m1 = now_ns(CLOCK_MONOTONIC), r = now_ns(CLOCK_REALTIME);
		int64_t t = now_ns(CLOCK_TAI), m2 = now_ns(CLOCK_MONOTONIC);

		if (m2 - m1 < o.within)
			o = (struct offsets){ r - m1, t - m1, m2 - m1 };
	}
	return o;
}

/* What the leap's watch saw of each path's REALTIME: its steps back,
 * the largest, and the longest time between two reads of it (ns). */
struct leap_path {
	int64_t last, at, back, gap;	/* at: MONOTONIC when last was read */
	int backs;
};

struct leap_seen {
	int seen[4];		/* TIME_OK, TIME_INS, TIME_OOP, TIME_WAIT */
	int rank;		/* the latest of them */
	int disorder;		/* 1 + a state seen after a later one, or 0 */
	int tai;		/* adjtimex's at the end */
	struct leap_path path[VK_NPATHS];
};

/* adjtimex's states, in the order a leap passes them: -1 for another. */
static int leap_rank(int state)
{
	switch (state) {
	case TIME_OK:
		return 0;
	case TIME_INS:
		return 1;
	case TIME_OOP:
		return 2;
	case TIME_WAIT:
		return 3;
	}
	return -1;
}

static void leap_state(struct leap_seen *w, int state)
{
	int r = leap_rank(state);

	if (r < w->rank)
		w->disorder = 1 + state;
	else
		w->seen[r] = 1;
	w->rank = r > w->rank ? r : w->rank;
}

static void leap_read(const struct vk_callset *cs, unsigned paths, struct leap_seen *w,
		      int64_t mono)
{
	for (int p = 0; p < VK_NPATHS; p++) {
		vk_clock_fn fn = cs->fn[p][VK_FN_CLOCK_GETTIME].clock;
		struct leap_path *lp = &w->path[p];
		struct vk_kts ts;
		int64_t v;

		if (!fn || !(p == VK_PATH_SYSCALL || (paths & VK_PATH_BIT(p))) || fn(CLOCK_REALTIME, &ts))
			continue;
		v = (int64_t)ts.sec * NSEC + ts.nsec;
		if (lp->last && v < lp->last) {
			lp->backs++;
			lp->back = lp->last - v > lp->back ? lp->last - v : lp->back;
		}
		if (lp->last && mono - lp->at > lp->gap)
			lp->gap = mono - lp->at;
		lp->last = v;
		lp->at = mono;
	}
}

/* Each path's REALTIME went back once by at most 1 s; 1 if one did not
 * (where its reads were less than 1 s apart, it cannot have missed the
 * step), -1 if one may have missed it; what each did in err. */
static int leap_paths(const struct leap_seen *w, char *err, size_t len)
{
	size_t n = strlen(err);
	int bad = 0;

	for (int p = 0; p < VK_NPATHS; p++) {
		const struct leap_path *lp = &w->path[p];
		int b = lp->backs > 1 || lp->back > NSEC ? 1 : !lp->backs ? (lp->gap < NSEC ? 1 : -1) : 0;

		if (!lp->last)
			continue;
		if (n < len)
			n += snprintf(err + n, len - n, "; %s REALTIME back %dx, by %.6f s", vk_path_name(p),
				      lp->backs, lp->back / 1e9);
		if (b > 0 || bad > 0)
			bad = 1;
		else if (b)
			bad = b;
	}
	return bad;
}

/* The leap's watch, seen to its end: its rules, in order of weight. */
static int leap_judge(const struct leap_seen *w, struct offsets o0, struct offsets o1,
		      char *err, size_t len)
{
	int64_t dreal = o1.real - o0.real, dtai = o1.tai - o0.tai, within = o0.within + o1.within;
	int paths, got, bad = vk_stress_leap_judge(dreal, dtai, within);
	char seen[256];

	snprintf(seen, sizeof(seen), "adjtimex %s%s%s, TAI %d -> %d; REALTIME %+.6f s, TAI %+.6f s "
		 "against MONOTONIC (+-%lld ns)", w->seen[1] ? "INS" : "(INS unseen)",
		 w->seen[2] ? " OOP" : " (OOP unseen)", w->seen[3] ? " WAIT" : " (no WAIT)", LEAP_TAI,
		 w->tai, dreal / 1e9, dtai / 1e9, (long long)within);
	paths = leap_paths(w, seen, sizeof(seen));
	if (w->disorder) {
		snprintf(err, len, "adjtimex said %d after a later state of the leap", w->disorder - 1);
		return 1;
	}
	if (bad || w->tai != LEAP_TAI + 1 || !w->seen[3] || paths > 0)
		got = 1;
	/* Each state lasts a second: a thread kept off the CPU for one misses it. */
	else
		got = !w->seen[1] || !w->seen[2] || paths < 0 ? -1 : 0;
	snprintf(err, len, "%s%s", got < 0 ? "not tested, the fault thread missed part of it: " : "",
		 seen);
	return got;
}

/* Make gen even (readers judged) or odd (not), if it is not. */
static void judged(unsigned *gen, int yes)
{
	if ((__atomic_load_n(gen, __ATOMIC_ACQUIRE) & 1) == (unsigned)yes)
		__atomic_add_fetch(gen, 1, __ATOMIC_ACQ_REL);
}

int vk_fault_leap(const struct vk_callset *cs, unsigned paths, unsigned *gen,
		  const struct vk_stress_saved *saved, char *err, size_t len)
{
	const int64_t midnight = LEAP_MIDNIGHT * NSEC;
	int64_t start = now_ns(CLOCK_MONOTONIC), mono = start, real;
	struct offsets o0 = offsets_now(), o1;
	struct leap_seen w = { 0 };
	struct timex tx = { 0 };
	int got = adjtimex(&tx);

	/* Before the step for sure: adjtimex says TIME_OOP from the midnight on. */
	if (leap_rank(got) < 0 || leap_rank(got) > 1) {
		snprintf(err, len, "not tested, the fault thread missed the midnight: adjtimex said %d", got);
		got = -1;
		goto back;
	}
	while (!w.seen[3] && mono - start < LEAP_LEAD_NS + LEAP_WAIT_NS) {
		int state = adjtimex(&tx);

		mono = now_ns(CLOCK_MONOTONIC);
		real = now_ns(CLOCK_REALTIME);
		leap_state(&w, state);
		leap_read(cs, paths, &w, mono);
		/* Stepped back, and read so since: the readers are judged again. */
		if (state == TIME_OOP && real < midnight)
			judged(gen, 1);
	}
	w.tai = tx.tai;
	o1 = offsets_now();
	got = leap_judge(&w, o0, o1, err, len);
	if (!w.seen[3])
		snprintf(err, len, "no leap second: adjtimex never said TIME_WAIT in %lld s after "
			 "the midnight (INS %s, OOP %s)", LEAP_WAIT_NS / NSEC,
			 w.seen[1] ? "seen" : "unseen", w.seen[2] ? "seen" : "unseen");
back:
	/* Put back what the step changed, unjudged as that is. */
	judged(gen, 0);
	if (realtime_back(saved, err, len) | set_status(saved->status, err, len) |
	    set_tai(saved->tai, err, len))
		got = 1;
	judged(gen, 1);
	return got;
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
		return set_realtime(s->arg, err, len);
	case VK_OP_REALTIME_BACK:
		return realtime_back(saved, err, len);
	case VK_OP_FREQ:
		return set_freq((long)s->arg, err, len);
	case VK_OP_TICK:
		return set_tick((long)s->arg, err, len);
	case VK_OP_SETOFFSET:
		return set_offset(s->arg, err, len);
	case VK_OP_CPU_OFFLINE:
	case VK_OP_CPU_ONLINE:
		return set_online(s->arg, s->op == VK_OP_CPU_ONLINE, err, len);
	case VK_OP_PAUSE:
		return pause_vm(s->arg, err, len);
	case VK_OP_TIMENS:
		return vk_stress_timens(st, err, len);
	case VK_OP_LEAP:
		return arm_leap(err, len);
	case VK_OP_TIMEZONE:
		return set_tz((int[2]){ (int)s->arg, s->dsttime }, err, len);
	}
	return 0;
}
