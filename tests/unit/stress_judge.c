// SPDX-License-Identifier: MIT
/*
 * stress's rules against the readings of the two planted implementations
 * issue 13 names, on a modelled kernel timeline: no clock of this machine
 * is read or changed. A kernel keeps REALTIME = MONOTONIC + offset and
 * MONOTONIC = RAW * rate; a fault changes the offset (a step) or the rate
 * (a slew). Each reader reads the syscall, the path, the syscall, 1 us
 * apart, as stress does.
 *   cached-offset: REALTIME as MONOTONIC plus the offset of its load time;
 *   calibrated-once: MONOTONIC extrapolated from RAW at the load's rate;
 *   passthrough: the kernel's own.
 */
#include <stdint.h>
#include <time.h>

#include "core/stress/stress.h"
#include "tests/unit/test.h"

#define US 1000LL
#define S 1000000000LL

struct kernel {
	int64_t offset;		/* REALTIME - MONOTONIC */
	int64_t ppm;		/* MONOTONIC's rate against RAW, from adjtimex */
};

static int64_t mono(const struct kernel *k, int64_t raw)
{
	return raw + raw / 1000000 * k->ppm;
}

static int64_t kernel_read(const struct kernel *k, int clock, int64_t raw)
{
	return clock == CLOCK_REALTIME ? mono(k, raw) + k->offset : mono(k, raw);
}

enum impl { PASSTHROUGH, CACHED_OFFSET, CALIBRATED_ONCE };

/* What each implementation returns; load is the kernel it saw at load. */
static int64_t impl_read(enum impl i, const struct kernel *k, const struct kernel *load,
			 int clock, int64_t raw)
{
	if (i == CACHED_OFFSET && clock == CLOCK_REALTIME)
		return mono(k, raw) + load->offset;
	if (i == CALIBRATED_ONCE && clock == CLOCK_MONOTONIC)
		return mono(load, raw);
	return kernel_read(k, clock, raw);
}

/* Reads every 10 us from raw 1 s to 2 s after the fault (a quiet run):
 * the rules broken in all of them, ORed. */
static int run(enum impl i, const struct kernel *k, const struct kernel *load, int clock)
{
	int64_t prev = 0;
	int bad = 0;

	for (int64_t raw = S; raw < 2 * S; raw += 10 * US) {
		int64_t got = impl_read(i, k, load, clock, raw + US);

		bad |= vk_stress_judge(clock, prev, kernel_read(k, clock, raw), got,
				       kernel_read(k, clock, raw + 2 * US), 1, 0);
		prev = got;
	}
	return bad;
}

int main(void)
{
	const struct kernel load = { .offset = 1700000000 * S, .ppm = 0 };
	const struct kernel stepped = { .offset = load.offset + 3600 * S, .ppm = 0 };
	const struct kernel back = { .offset = load.offset - 7200 * S, .ppm = 0 };
	const struct kernel fast = { .offset = load.offset, .ppm = 500 };
	const struct kernel slow = { .offset = load.offset, .ppm = -500 };
	const struct kernel *faults[] = { &load, &stepped, &back, &fast, &slow };
	const char *names[] = { "none", "step +1 h", "step -2 h", "slew +500 ppm", "slew -500 ppm" };

	for (int f = 0; f < 5; f++) {
		CHECK(!run(PASSTHROUGH, faults[f], &load, CLOCK_REALTIME) &&
		      !run(PASSTHROUGH, faults[f], &load, CLOCK_MONOTONIC),
		      "passthrough survives %s", names[f]);
	}
	CHECK(!run(CACHED_OFFSET, &load, &load, CLOCK_REALTIME),
	      "cached-offset REALTIME passes while nothing changes");
	CHECK(run(CACHED_OFFSET, &stepped, &load, CLOCK_REALTIME) == VK_STRESS_ORDER,
	      "cached-offset REALTIME is caught after a step forwards");
	CHECK(run(CACHED_OFFSET, &back, &load, CLOCK_REALTIME) == VK_STRESS_ORDER,
	      "cached-offset REALTIME is caught after a step backwards");
	CHECK(!run(CALIBRATED_ONCE, &load, &load, CLOCK_MONOTONIC),
	      "calibrated-once MONOTONIC passes while the rate holds");
	CHECK(run(CALIBRATED_ONCE, &fast, &load, CLOCK_MONOTONIC) == VK_STRESS_ORDER,
	      "calibrated-once MONOTONIC is caught under +500 ppm");
	CHECK(run(CALIBRATED_ONCE, &slow, &load, CLOCK_MONOTONIC) == VK_STRESS_ORDER,
	      "calibrated-once MONOTONIC is caught under -500 ppm");
	/* The rules themselves, at their edges. */
	CHECK(vk_stress_judge(CLOCK_MONOTONIC, 10, 5, 9, 20, 1, 0) == VK_STRESS_BACK,
	      "MONOTONIC below the previous read steps back");
	CHECK(vk_stress_judge(CLOCK_MONOTONIC_COARSE, 10, 0, 9, 0, 1, 0) == VK_STRESS_BACK,
	      "so does MONOTONIC_COARSE, which is not judged against the syscall");
	CHECK(vk_stress_judge(CLOCK_REALTIME, 10, 5, 9, 20, 1, 0) == 0,
	      "REALTIME may step back");
	CHECK(vk_stress_judge(CLOCK_REALTIME, 0, 5, 30, 20, 0, 0) == 0,
	      "no order is judged when a fault came between the reads");
	CHECK(vk_stress_judge(CLOCK_MONOTONIC, 10, 10, 10, 10, 1, 0) == 0,
	      "equal readings break nothing");
	/* A jump: a monotonic clock that moves on more than a pause and a
	 * hang between two reads, as a delta overflow after a long pause. */
	CHECK(vk_stress_judge(CLOCK_MONOTONIC, S, 0, 30 * S, 0, 0, 23 * S) == VK_STRESS_JUMP,
	      "MONOTONIC 29 s past the last read, 23 s allowed, jumped");
	CHECK(vk_stress_judge(CLOCK_BOOTTIME, S, 0, 24 * S, 0, 0, 23 * S) == 0,
	      "BOOTTIME 23 s past it did not");
	CHECK(vk_stress_judge(CLOCK_REALTIME, S, 0, 3600 * S, 0, 0, 23 * S) == 0,
	      "REALTIME may jump");
	CHECK(vk_stress_judge(CLOCK_MONOTONIC, S, 0, 100 * S, 0, 0, 0) == 0,
	      "no jump is judged before a thread's first read");
	/* The pause, by the RTC's whole seconds and MONOTONIC's ns. */
	CHECK(vk_stress_pause_judge(3, 3, S / 10) == 0, "a 3 s pause MONOTONIC stood still in");
	CHECK(vk_stress_pause_judge(3, 4, 3 * S + S / 2) == -1,
	      "one it counted is no pause seen, and no jump");
	CHECK(vk_stress_pause_judge(3, 1, S / 2) == -1, "no pause yet: the RTC gained 1 s");
	CHECK(vk_stress_pause_judge(3, 5, 5 * S) == -1, "no pause: MONOTONIC kept up with the RTC");
	CHECK(vk_stress_pause_judge(3, 4, 6 * S) == VK_STRESS_JUMP,
	      "MONOTONIC 6 s across a pause the RTC saw last 4 s jumped");
	/* Rates over a 1 s step under +500 ppm: MONOTONIC moved 1.0005 s for
	 * RAW's 1 s; planted kernels where it ignored the slew, where RAW
	 * followed it too, where it went the wrong way. Each end read within
	 * 2 us: the rate is known to 2 ppm. */
	const double u = vk_stress_rate_uncertainty_ppm(2 * US, 2 * US, S);

	CHECK(u == 2, "ends read within 2 us over 1 s: the rate is known to 2 ppm (%.1f)", u);
	CHECK(!vk_stress_rate_judge(500, vk_stress_rate_ppm(S + 500 * US, S), u),
	      "MONOTONIC +500 ppm against RAW under +500 ppm is right");
	CHECK(!vk_stress_rate_judge(-500, vk_stress_rate_ppm(S - 480 * US, S), u),
	      "-480 ppm under -500 ppm is within the tolerance");
	CHECK(vk_stress_rate_judge(500, vk_stress_rate_ppm(S, S), u) == VK_STRESS_ORDER,
	      "MONOTONIC that ignored the slew is caught");
	CHECK(vk_stress_rate_judge(500, vk_stress_rate_ppm(S + 500 * US, S + 500 * US), u) ==
	      VK_STRESS_ORDER, "RAW that followed the slew too is caught");
	CHECK(vk_stress_rate_judge(500, vk_stress_rate_ppm(S - 500 * US, S), u) == VK_STRESS_ORDER,
	      "a slew the wrong way is caught");
	CHECK(!vk_stress_rate_judge(0, vk_stress_rate_ppm(10 * S + 3 * US, 10 * S), u),
	      "no slew, no rate");
	/* A busy host: each end's tightest bracket 300 us wide, over 0.5 s,
	 * leaves the rate known to 600 ppm, more than a slew: not tested. */
	const double loose = vk_stress_rate_uncertainty_ppm(300 * US, 300 * US, S / 2);

	CHECK(vk_stress_rate_judge(500, vk_stress_rate_ppm(S / 2, S / 2), loose) == -1,
	      "MONOTONIC that ignored the slew, read too loosely to tell (+-%.0f ppm), is not tested",
	      loose);
	CHECK(vk_stress_rate_judge(500, vk_stress_rate_ppm(S / 2 + 250 * US, S / 2), loose) == -1,
	      "nor is a right one: a rate known to +-%.0f ppm passes nothing", loose);
	CHECK(vk_stress_rate_judge(500, vk_stress_rate_ppm(S / 2 - 500 * US, S / 2), loose) ==
	      VK_STRESS_ORDER, "a rate off by more than the uncertainty still fails");
	CHECK(vk_stress_rate_judge(500, vk_stress_rate_ppm(S + 560 * US, S), 20) == 0 &&
	      vk_stress_rate_judge(500, vk_stress_rate_ppm(S + 580 * US, S), 20) == VK_STRESS_ORDER,
	      "the uncertainty widens the tolerance only by itself");
	/* An inserted leap second: REALTIME back 1 s against MONOTONIC, TAI not. */
	CHECK(!vk_stress_leap_judge(-S + 2 * US, -US, 3 * US),
	      "REALTIME back 1 s and TAI still, within the reads' 3 us, is the leap");
	CHECK(vk_stress_leap_judge(0, 0, 3 * US) == VK_STRESS_ORDER, "no leap is caught");
	CHECK(vk_stress_leap_judge(-2 * S, 0, 3 * US) == VK_STRESS_ORDER, "a second repeated twice is caught");
	CHECK(vk_stress_leap_judge(-S, -S, 3 * US) == VK_STRESS_ORDER, "TAI stepped back with it is caught");
	CHECK(vk_stress_leap_judge(-S + 4 * US, 0, 3 * US) == VK_STRESS_ORDER,
	      "off by more than the reads' width is caught");
	return test_exit();
}
