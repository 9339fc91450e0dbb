// SPDX-License-Identifier: MIT
/*
 * stress's leap-second fault: sets REALTIME just before the last leap
 * second and arms STA_INS, so that readers see the kernel insert one
 * (stress.h).
 */
#include <stdio.h>
#include <string.h>
#include <sys/timex.h>

#include "core/call/call.h"
#include "core/stress/stress_clock.h"
#include "core/stress/stress_faults.h"
#include "core/stress/stress_judge.h"

/*
 * The leap second: the last one inserted, 2016-12-31 23:59:60 UTC, when
 * TAI - UTC went from 36 s to 37 s. The kernel inserts one at whichever
 * midnight follows STA_INS, stepping REALTIME back 1 s at its first tick
 * in 00:00:00, and adjtimex says TIME_INS, TIME_OOP in the second
 * repeated, then TIME_WAIT (kernel/time/ntp.c, second_overflow()).
 */
#define LEAP_MIDNIGHT 1483228800LL
#define LEAP_TAI 36
#define LEAP_LEAD_NS (2 * VK_NSEC)		/* REALTIME set this long before */
#define LEAP_WAIT_NS (10 * VK_NSEC)	/* after the midnight, a leap not made */

static int set_status(int status, char *err, size_t len)
{
	return vk_stress_adjust((struct timex){ .modes = ADJ_STATUS, .status = status }, err, len,
				"ADJ_STATUS, %#x", status);
}

static int set_tai(int tai, char *err, size_t len)
{
	return vk_stress_adjust((struct timex){ .modes = ADJ_TAI, .constant = tai }, err, len,
				"ADJ_TAI, %d", tai);
}

/*
 * Setting the time leaves the maximum error at its limit, so the next
 * second marks the clock unsynchronized and adjtimex says TIME_ERROR
 * instead of the leap's states: an error of 0, growing 500 us a second.
 */
static int set_maxerror(char *err, size_t len)
{
	return vk_stress_adjust((struct timex){ .modes = ADJ_MAXERROR | ADJ_ESTERROR }, err, len,
				"ADJ_MAXERROR, 0");
}

/* REALTIME just before the midnight, TAI - UTC 36 s, STA_INS alone (STA_PLL
 * cleared, as it holds the leap off): in that order, as setting the time
 * clears the status. */
int vk_fault_leap_arm(char *err, size_t len)
{
	struct timex tx = { 0 };

	if (vk_stress_set_realtime(LEAP_MIDNIGHT * VK_NSEC - LEAP_LEAD_NS, err, len) ||
	    set_tai(LEAP_TAI, err, len) || set_status(STA_INS, err, len) || set_maxerror(err, len))
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
		int64_t m1 = vk_stress_now_ns(CLOCK_MONOTONIC), r = vk_stress_now_ns(CLOCK_REALTIME);
		int64_t t = vk_stress_now_ns(CLOCK_TAI), m2 = vk_stress_now_ns(CLOCK_MONOTONIC);

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
		v = (int64_t)ts.sec * VK_NSEC + ts.nsec;
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
		int b = lp->backs > 1 || lp->back > VK_NSEC ? 1 : !lp->backs ? (lp->gap < VK_NSEC ? 1 : -1) : 0;

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
	const int64_t midnight = LEAP_MIDNIGHT * VK_NSEC;
	int64_t start = vk_stress_now_ns(CLOCK_MONOTONIC), mono = start, real;
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

		mono = vk_stress_now_ns(CLOCK_MONOTONIC);
		real = vk_stress_now_ns(CLOCK_REALTIME);
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
			 "the midnight (INS %s, OOP %s)", LEAP_WAIT_NS / VK_NSEC,
			 w.seen[1] ? "seen" : "unseen", w.seen[2] ? "seen" : "unseen");
back:
	/* Put back what the step changed, unjudged as that is. */
	judged(gen, 0);
	if (vk_stress_realtime_back(saved->real_ns, saved->mono_ns, err, len) |
	    set_status(saved->status, err, len) | set_tai(saved->tai, err, len))
		got = 1;
	judged(gen, 1);
	return got;
}
