/* SPDX-License-Identifier: MIT */
/* stress's rules on what its readers and fault steps saw. */
#ifndef VK_STRESS_JUDGE_H
#define VK_STRESS_JUDGE_H

#include <stdint.h>

/*
 * The rules one read through a path (got, in ns) breaks: VK_STRESS_BACK, a
 * clock that must not step back read below prev (this thread's last read,
 * or the latest another thread published before it); VK_STRESS_ORDER, a
 * fine clock read outside the syscall's reads before and after it, when
 * quiet (no fault was injected between them: REALTIME may jump);
 * VK_STRESS_JUMP, a clock that must not step back read more than
 * max_jump ns past prev (0: not judged, as before a thread's first read).
 */
enum { VK_STRESS_BACK = 1, VK_STRESS_ORDER = 2, VK_STRESS_JUMP = 4 };
int vk_stress_judge(int clock, int64_t prev, int64_t before, int64_t got, int64_t after,
		    int quiet, int64_t max_jump);
/*
 * A pause of sec seconds the host was asked for, judged by how far the
 * RTC (whole seconds, running on the host's time) and MONOTONIC (ns) moved
 * on since: VK_STRESS_JUMP, MONOTONIC outran the RTC (by more than its
 * resolution); -1, no pause seen yet (the RTC has not gained sec - 1 s on
 * MONOTONIC, as it does where MONOTONIC stands still across a pause, as
 * under qemu); else 0.
 */
int vk_stress_pause_judge(int64_t sec, int64_t rtc_s, int64_t mono_ns);
/*
 * MONOTONIC's rate against MONOTONIC_RAW's over a step, in ppm, from
 * their moves in ns; how far off that can be, in ppm, where each end was
 * read within a bracket of RAW readings bracket0 and bracket1 ns wide;
 * and whether it is adjtimex's frequency (want_ppm) within a tenth of a
 * 500 ppm slew: 0 if it is, VK_STRESS_ORDER if it is not even within the
 * uncertainty added, -1 where the uncertainty alone is wider than the
 * tolerance (the rate was not tested).
 */
#define VK_STRESS_RATE_TOLERANCE_PPM 50
double vk_stress_rate_ppm(int64_t mono_ns, int64_t raw_ns);
double vk_stress_rate_uncertainty_ppm(int64_t bracket0, int64_t bracket1, int64_t raw_ns);
int vk_stress_rate_judge(double want_ppm, double got_ppm, double uncertainty_ppm);
/*
 * An inserted leap second, from how REALTIME - MONOTONIC (real_ns) and
 * TAI - MONOTONIC (tai_ns) moved across it, each known to within ns:
 * 0 if REALTIME went back exactly 1 s and TAI did not move, else
 * VK_STRESS_ORDER.
 */
int vk_stress_leap_judge(int64_t real_ns, int64_t tai_ns, int64_t within);
/* Whether a clock must never step back. */
int vk_stress_monotonic(int clock);

#endif /* VK_STRESS_JUDGE_H */
