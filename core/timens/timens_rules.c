// SPDX-License-Identifier: MIT
/*
 * timens's rules, apart from the reads, so that unit tests can feed them
 * any values (timens_rules.h).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/base/api.h"
#include "core/call/call.h"
#include "core/call/targets.h"
#include "core/timens/timens_rules.h"


const struct vk_timens_clock vk_timens_clocks[VK_TIMENS_NCLOCKS] = {
	{ CLOCK_REALTIME, VK_TIMENS_NO_OFFSET }, { CLOCK_MONOTONIC, VK_TIMENS_MONO },
	{ CLOCK_MONOTONIC_RAW, VK_TIMENS_MONO }, { CLOCK_REALTIME_COARSE, VK_TIMENS_NO_OFFSET },
	{ CLOCK_MONOTONIC_COARSE, VK_TIMENS_MONO }, { CLOCK_BOOTTIME, VK_TIMENS_BOOT },
	{ CLOCK_REALTIME_ALARM, VK_TIMENS_NO_OFFSET }, { CLOCK_BOOTTIME_ALARM, VK_TIMENS_BOOT },
	{ CLOCK_TAI, VK_TIMENS_NO_OFFSET },
};

const enum vk_path vk_timens_read_paths[2] = { VK_PATH_VDSO, VK_PATH_SYSCALL };
const int vk_timens_time32_ids[2] = { CLOCK_MONOTONIC, CLOCK_BOOTTIME };

/* The time32 entries' APIs, and MONOTONIC's and BOOTTIME's places in the clocks. */
static const char *const time32_apis[2] = { "clock-gettime-monotonic", "clock-gettime-boottime" };
static const int time32_idx[2] = { 1, 5 };

struct vk_result *vk_timens_result(struct vk_results *rs, const char *api, enum vk_path p,
				   const struct vk_timens_set *s, const char *rule,
				   const char *fail)
{
	char check[48];
	struct vk_result *r;

	snprintf(check, sizeof(check), "%.23s:%.23s", s->name, rule);
	r = vk_results_add(rs, api, p, check);
	r->calls = 1;
	if (fail)
		vk_result_fail(rs, r, "%s", fail);
	return r;
}

#define NSEC 1000000000LL

int64_t vk_timens_floor_sec(int64_t ns)
{
	return ns / NSEC - (ns % NSEC < 0);
}

int vk_timens_parse_offset(const char *s, int64_t *ns)
{
	int neg = *s == '-', digits = 0, decimals = 0;
	uint64_t sec = 0, frac = 0;

	for (s += neg; *s >= '0' && *s <= '9'; s++, digits++) {
		if (sec > (uint64_t)VK_TIMENS_SEC_MAX)
			return -2;
		sec = sec * 10 + (uint64_t)(*s - '0');
	}
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++, decimals++) {
			if (decimals == 9)
				return -1;
			frac = frac * 10 + (uint64_t)(*s - '0');
		}
		if (!decimals)
			return -1;
	}
	if (!digits || *s)
		return -1;
	for (int i = decimals; i < 9; i++)
		frac *= 10;
	if (sec > (uint64_t)VK_TIMENS_SEC_MAX)
		return -2;
	*ns = (int64_t)(sec * NSEC + frac);
	if (neg)
		*ns = -*ns;
	return 0;
}

void vk_timens_offset_bounds(int64_t now, int64_t *lo, int64_t *hi)
{
	*lo = -now;
	*hi = (VK_TIMENS_CLOCK_MAX + 1) * NSEC - 1 - now;
}

const char *vk_timens_seconds(char *buf, size_t len, int64_t ns)
{
	uint64_t a = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;
	int n = snprintf(buf, len, "%s%llu.%09llu", ns < 0 ? "-" : "",
			 (unsigned long long)(a / NSEC), (unsigned long long)(a % NSEC));

	/* The fraction's trailing zeros, then a bare point, say nothing. */
	while (n > 0 && (size_t)n < len && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && (size_t)n < len && buf[n - 1] == '.')
		buf[--n] = '\0';
	return buf;
}

void vk_timens_bounds_said(char *buf, size_t len, int64_t mono, int64_t boot)
{
	char b[4][32];
	int64_t lo[2], hi[2];

	vk_timens_offset_bounds(mono, &lo[0], &hi[0]);
	vk_timens_offset_bounds(boot, &lo[1], &hi[1]);
	snprintf(buf, len, "the kernel keeps each clock inside from 0 s to under %lld s, so it takes a MONOTONIC offset of %s to %s s and a BOOTTIME one of %s to %s s now",
		 VK_TIMENS_CLOCK_MAX + 1, vk_timens_seconds(b[0], sizeof(b[0]), lo[0]),
		 vk_timens_seconds(b[1], sizeof(b[1]), hi[0]),
		 vk_timens_seconds(b[2], sizeof(b[2]), lo[1]),
		 vk_timens_seconds(b[3], sizeof(b[3]), hi[1]));
}

static int64_t offset_ns(const struct vk_timens_set *s, enum vk_timens_offset k)
{
	return k == VK_TIMENS_MONO ? s->mono_ns : k == VK_TIMENS_BOOT ? s->boot_ns : 0;
}

/* Inside = outside + offset, with outside read just before and after. */
static void check_offsets(struct vk_results *rs, const struct vk_timens_outside *o,
			  const struct vk_timens_readings *r)
{
	const int64_t *before = o->before, *after = o->after;
	char api[40], fail[256], sec[32];

	for (size_t i = 0; i < VK_TIMENS_NCLOCKS; i++) {
		int64_t off = offset_ns(o->set, vk_timens_clocks[i].offset);
		struct vk_clock c = { .id = vk_timens_clocks[i].id };

		snprintf(c.name, sizeof(c.name), "%s", vk_clock_name(c.id));
		vk_clock_api(api, sizeof(api), VK_FN_CLOCK_GETTIME, &c);
		if (before[i] == VK_TIMENS_NONE)
			continue;	/* a clock this machine lacks (no RTC: no alarm clocks) */
		for (int k = 0; k < 2; k++) {
			int64_t in = r->ns[i][k];
			int ok = in != VK_TIMENS_NONE && before[i] + off <= in && in <= after[i] + off;

			snprintf(fail, sizeof(fail), "clock %d read %lld ns inside; outside it read %lld then %lld ns, so with the offset of %s s %lld to %lld",
				 c.id, (long long)in, (long long)before[i], (long long)after[i],
				 vk_timens_seconds(sec, sizeof(sec), off),
				 (long long)(before[i] + off), (long long)(after[i] + off));
			vk_timens_result(rs, api, vk_timens_read_paths[k], o->set, "offset",
					 ok ? NULL : fail);
		}
	}
}

/* The kernel took the offsets as written, to the ns: the set's on top of
 * vdsokit's own namespace's. */
static void check_kernel(struct vk_results *rs, const struct vk_timens_outside *o,
			 const struct vk_timens_readings *r)
{
	const struct vk_timens_set *s = o->set;
	int64_t mono = o->base_ns[0] + s->mono_ns, boot = o->base_ns[1] + s->boot_ns;
	char fail[192], b[4][32];
	int same = r->kernel_ns[0] == mono && r->kernel_ns[1] == boot;

	snprintf(fail, sizeof(fail), "/proc/self/timens_offsets says MONOTONIC %s s, BOOTTIME %s s inside; written: %s s, %s s",
		 r->kernel_ns[0] == VK_TIMENS_NONE ? "?" : vk_timens_seconds(b[0], 32, r->kernel_ns[0]),
		 r->kernel_ns[1] == VK_TIMENS_NONE ? "?" : vk_timens_seconds(b[1], 32, r->kernel_ns[1]),
		 vk_timens_seconds(b[2], 32, mono), vk_timens_seconds(b[3], 32, boot));
	vk_timens_result(rs, "timens", VK_PATH_SYSCALL, s, "kernel-offsets", same ? NULL : fail);
}

/* What a time32 clock_gettime did past 2^31 s. */
enum y2038 { Y2038_FAILED, Y2038_RIGHT, Y2038_WRAPPED };

static enum y2038 y2038_of(int ret, int64_t sec, int64_t want)
{
	if (ret)
		return Y2038_FAILED;
	return sec < want ? Y2038_WRAPPED : Y2038_RIGHT;
}

/* Entry k's time32 reading on path p, against the syscall's sys, at want s. */
static void check_y2038_path(struct vk_results *rs, const struct vk_timens_outside *o,
			     const struct vk_timens_readings *r, int k, int p, int64_t want)
{
	static const char *const what[] = { "failed", "was right", "wrapped" };
	enum y2038 sys = y2038_of(r->y2038_ret[k][VK_PATH_SYSCALL],
				  r->y2038_sec[k][VK_PATH_SYSCALL], want);
	enum y2038 got = y2038_of(r->y2038_ret[k][p], r->y2038_sec[k][p], want);
	int bad = p == VK_PATH_LIBC ? got == Y2038_WRAPPED : got != sys;
	struct vk_result *res;
	char fail[192];

	/* A 32-bit ABI's syscall lacks it only where the kernel lacks time32. */
	if (p != VK_PATH_LIBC && !(o->paths & VK_PATH_BIT(VK_PATH_SYSCALL))) {
		res = vk_timens_result(rs, time32_apis[k], p, o->set, "y2038", NULL);
		vk_result_skip(res, "no syscall to compare with: %s", VK_WHY_NO_TIME32);
		return;
	}

	snprintf(fail, sizeof(fail), "the time32 clock_gettime returned %d with tv_sec %lld; the clock is at %lld s%s%s",
		 r->y2038_ret[k][p], (long long)r->y2038_sec[k][p], (long long)want,
		 p == VK_PATH_LIBC ? "" : "; the time32 syscall ",
		 p == VK_PATH_LIBC ? "" : what[sys]);
	res = vk_timens_result(rs, time32_apis[k], p, o->set, "y2038", bad ? fail : NULL);
	if (!bad && got == Y2038_WRAPPED)
		snprintf(res->detail, sizeof(res->detail), "wraps past 2^31 s (tv_sec %lld at %lld s), as the kernel's time32 ABI does",
			 (long long)r->y2038_sec[k][p], (long long)want);
}

/*
 * Past 2^31 s the kernel's own time32 syscall wraps tv_sec: its ABI has
 * no EOVERFLOW, and clock_gettime64 is its fix. The vDSO's time32 entry
 * must do what that syscall does; doing otherwise is a finding. libc's
 * time32 clock_gettime is libc's own interface and must fail (EOVERFLOW)
 * or be right, as glibc's does: a wrapped tv_sec there is a y2038 bug.
 */
static void check_y2038(struct vk_results *rs, const struct vk_timens_outside *o,
			const struct vk_timens_readings *r)
{
	if (!o->time32)
		return;
	for (int k = 0; k < 2; k++) {
		int64_t want = (o->before[time32_idx[k]] + (k ? o->set->boot_ns : o->set->mono_ns)) /
			       NSEC;

		if (want < (1ll << 31))
			continue;
		for (int p = 0; p < VK_NPATHS; p++) {
			if (o->paths & VK_PATH_BIT(p))
				check_y2038_path(rs, o, r, k, p, want);
		}
	}
}

/* A --impl call that died is a failure of the library's, by name. */
static void check_impl(struct vk_results *rs, const struct vk_timens_outside *o,
		       const struct vk_timens_readings *r)
{
	char fail[384];

	for (int k = 0; k < 2; k++) {
		if (!r->impl_died[k][0])
			continue;
		snprintf(fail, sizeof(fail), "%s's time32 clock_gettime %s%.63s", o->impl,
			 strncmp(r->impl_died[k], "killed", 6) ? "" : "was ", r->impl_died[k]);
		vk_timens_result(rs, time32_apis[k], VK_PATH_IMPL, o->set, "survives", fail);
	}
}

/* The results of the checks the child ran, named for the set. */
static void adopt(struct vk_results *rs, const struct vk_timens_set *s, const char *data,
		  size_t len)
{
	for (size_t off = 0; off + sizeof(struct vk_result) <= len;
	     off += sizeof(struct vk_result)) {
		struct vk_result x;
		char rule[sizeof(x.check)];

		memcpy(&x, data + off, sizeof(x));
		memcpy(rule, x.check, sizeof(rule));
		snprintf(x.check, sizeof(x.check), "%.23s:%.23s", s->name, rule);
		vk_results_append(rs, &x);
	}
}

void vk_timens_judge(struct vk_results *rs, const struct vk_timens_outside *o,
		     const void *data, size_t len)
{
	struct vk_timens_readings r;

	if (len < sizeof(r)) {
		vk_timens_result(rs, "timens", VK_PATH_SYSCALL, o->set, "survives",
				 "the child in the namespace died before it read the clocks");
		return;
	}
	memcpy(&r, data, sizeof(r));
	check_kernel(rs, o, &r);
	check_offsets(rs, o, &r);
	check_y2038(rs, o, &r);
	check_impl(rs, o, &r);
	adopt(rs, o->set, (const char *)data + sizeof(r), len - sizeof(r));
}

void vk_timens_died(struct vk_results *rs, struct vk_result *r, const char *died)
{
	if (!strncmp(died, "not tested", 10))
		vk_result_error(rs, r, "%s", died);
	else
		vk_result_fail(rs, r, "%s", died);
}
