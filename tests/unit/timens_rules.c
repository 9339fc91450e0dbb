// SPDX-License-Identifier: MIT
/*
 * timens's rules on planted readings: no namespace is made and no clock
 * read. Outside, every clock reads 1000 s before and 1001 s after; the
 * set's offsets are MONOTONIC +100 s and BOOTTIME +200 s, or fractions of
 * a second either way, or, for the y2038 rules, past 2^31 s, where a
 * time32 tv_sec wraps. Then the offsets' syntax and the kernel's bounds.
 */
#include <string.h>
#include <time.h>

#include "core/base/array.h"
#include "core/timens/timens_rules.h"
#include "tests/unit/test.h"

#define S 1000000000LL
#define Y2038 (1LL << 31)

static const struct vk_timens_set small = { "small", 100 * S, 200 * S };
static const struct vk_timens_set fraction = { "fraction", -S / 2 - 1, S + 1 };
static const struct vk_timens_set past = { "past", (Y2038 + 3600 - 1000) * S,
					   (Y2038 + 3600 - 1000) * S };

static void outside(struct vk_timens_outside *o, const struct vk_timens_set *s)
{
	memset(o, 0, sizeof(*o));
	o->set = s;
	o->paths = VK_PATH_BIT(VK_PATH_VDSO) | VK_PATH_BIT(VK_PATH_LIBC) |
		   VK_PATH_BIT(VK_PATH_SYSCALL);
	o->impl = "planted.so";
	for (int i = 0; i < VK_TIMENS_NCLOCKS; i++) {
		o->before[i] = 1000 * S;
		o->after[i] = 1001 * S;
	}
}

/* Each clock read inside as a right vDSO would: half a second in, plus its offset. */
static void right(struct vk_timens_readings *r, const struct vk_timens_set *s)
{
	memset(r, 0, sizeof(*r));
	for (int i = 0; i < VK_TIMENS_NCLOCKS; i++) {
		enum vk_timens_offset k = vk_timens_clocks[i].offset;
		int64_t off = k == VK_TIMENS_MONO ? s->mono_ns : k == VK_TIMENS_BOOT ? s->boot_ns : 0;

		r->ns[i][0] = r->ns[i][1] = 1000 * S + S / 2 + off;
	}
	r->kernel_ns[0] = s->mono_ns;
	r->kernel_ns[1] = s->boot_ns;
}

static int clock_index(int id)
{
	for (int i = 0; i < VK_TIMENS_NCLOCKS; i++) {
		if (vk_timens_clocks[i].id == id)
			return i;
	}
	return -1;
}

static const struct vk_result *find(const struct vk_results *rs, const char *api, enum vk_path p,
				    const char *check)
{
	for (size_t i = 0; i < rs->n; i++) {
		const struct vk_result *r = rs->r[i];

		if (!strcmp(r->api, api) && r->path == p && !strcmp(r->check, check))
			return r;
	}
	return NULL;
}

static int status_of(const struct vk_results *rs, const char *api, enum vk_path p,
		     const char *check)
{
	const struct vk_result *r = find(rs, api, p, check);

	return r ? (int)r->status : -1;
}

static void judge(struct vk_results *rs, const struct vk_timens_outside *o,
		  const struct vk_timens_readings *r)
{
	memset(rs, 0, sizeof(*rs));
	vk_timens_judge(rs, o, r, sizeof(*r));
}

static void offsets(void)
{
	struct vk_timens_outside o;
	struct vk_timens_readings r;
	struct vk_results rs;
	int mono = clock_index(CLOCK_MONOTONIC), real = clock_index(CLOCK_REALTIME);
	int boot = clock_index(CLOCK_BOOTTIME), alarm = clock_index(CLOCK_BOOTTIME_ALARM);

	outside(&o, &small);
	right(&r, &small);
	judge(&rs, &o, &r);
	CHECK(rs.n == 2 * VK_TIMENS_NCLOCKS + 1 && rs.fails == 0,
	      "offsets: right readings pass, every clock on both paths (%zu results, %llu failed)",
	      rs.n, rs.fails);
	vk_results_free(&rs);

	/* A vDSO that ignores the namespace's page: MONOTONIC without its offset. */
	r.ns[mono][0] -= small.mono_ns;
	judge(&rs, &o, &r);
	CHECK(rs.fails == 1 && status_of(&rs, "clock-gettime-monotonic", VK_PATH_VDSO,
					 "small:offset") == VK_FAIL,
	      "offsets: MONOTONIC on the vdso without its offset fails, alone");
	CHECK(status_of(&rs, "clock-gettime-monotonic", VK_PATH_SYSCALL, "small:offset") == VK_PASS,
	      "offsets: the syscall's right MONOTONIC passes beside it");
	vk_results_free(&rs);

	/* An offset where none belongs, and BOOTTIME given MONOTONIC's. */
	right(&r, &small);
	r.ns[real][0] += small.mono_ns;
	r.ns[boot][1] += small.mono_ns - small.boot_ns;
	judge(&rs, &o, &r);
	CHECK(rs.fails == 2 &&
	      status_of(&rs, "clock-gettime-realtime", VK_PATH_VDSO, "small:offset") == VK_FAIL &&
	      status_of(&rs, "clock-gettime-boottime", VK_PATH_SYSCALL, "small:offset") == VK_FAIL,
	      "offsets: REALTIME offset, and BOOTTIME by MONOTONIC's offset, fail");
	vk_results_free(&rs);

	/* A clock this machine lacks is not judged; one unread inside fails. */
	right(&r, &small);
	o.before[alarm] = VK_TIMENS_NONE;
	r.ns[mono][1] = VK_TIMENS_NONE;
	judge(&rs, &o, &r);
	CHECK(rs.n == 2 * (VK_TIMENS_NCLOCKS - 1) + 1 && rs.fails == 1 &&
	      status_of(&rs, "clock-gettime-monotonic", VK_PATH_SYSCALL, "small:offset") == VK_FAIL,
	      "offsets: a clock absent outside is skipped, one unread inside fails");
	vk_results_free(&rs);
}

/* Offsets of part of a second, negative too: each clock moves by exactly
 * its offset, and a reading 1 ns off, or a whole second, is caught. */
static void fractions(void)
{
	struct vk_timens_outside o;
	struct vk_timens_readings r;
	struct vk_results rs;
	int mono = clock_index(CLOCK_MONOTONIC), boot = clock_index(CLOCK_BOOTTIME);

	outside(&o, &fraction);
	/* Outside, the clocks read exactly once: the bracket is that instant. */
	for (int i = 0; i < VK_TIMENS_NCLOCKS; i++)
		o.after[i] = o.before[i];
	right(&r, &fraction);
	for (int i = 0; i < VK_TIMENS_NCLOCKS; i++)
		r.ns[i][0] = r.ns[i][1] = r.ns[i][0] - S / 2;
	judge(&rs, &o, &r);
	CHECK(rs.fails == 0, "fractions: -0.500000001 s and +1.000000001 s, exactly, pass (%llu failed)",
	      rs.fails);
	vk_results_free(&rs);

	r.ns[mono][0] += 1;
	judge(&rs, &o, &r);
	CHECK(rs.fails == 1 && status_of(&rs, "clock-gettime-monotonic", VK_PATH_VDSO,
					 "fraction:offset") == VK_FAIL,
	      "fractions: MONOTONIC 1 ns past its offset fails");
	vk_results_free(&rs);

	/* The offset's seconds without its nanoseconds, as a whole-second
	 * reader of the namespace page would have it. */
	r.ns[mono][0] -= 1;
	r.ns[boot][0] -= S / 1000000000;
	judge(&rs, &o, &r);
	CHECK(rs.fails == 1 && status_of(&rs, "clock-gettime-boottime", VK_PATH_VDSO,
					 "fraction:offset") == VK_FAIL,
	      "fractions: BOOTTIME without the offset's 1 ns fails");
	vk_results_free(&rs);

	/* The kernel shows the offsets as written, to the ns. */
	right(&r, &fraction);
	for (int i = 0; i < VK_TIMENS_NCLOCKS; i++)
		r.ns[i][0] = r.ns[i][1] = r.ns[i][0] - S / 2;
	judge(&rs, &o, &r);
	CHECK(status_of(&rs, "timens", VK_PATH_SYSCALL, "fraction:kernel-offsets") == VK_PASS,
	      "kernel-offsets: the offsets as written pass");
	vk_results_free(&rs);
	r.kernel_ns[0] = -S;	/* the seconds alone */
	judge(&rs, &o, &r);
	CHECK(rs.fails == 1 &&
	      status_of(&rs, "timens", VK_PATH_SYSCALL, "fraction:kernel-offsets") == VK_FAIL &&
	      strstr(find(&rs, "timens", VK_PATH_SYSCALL, "fraction:kernel-offsets")->detail,
		     "says MONOTONIC -1 s, BOOTTIME 1.000000001 s inside; written: -0.500000001 s, 1.000000001 s"),
	      "kernel-offsets: an offset the kernel shows otherwise fails, both said");
	vk_results_free(&rs);
}

static void syntax(void)
{
	static const struct {
		const char *s;
		int ret;
		int64_t ns;
	} t[] = {
		{ "100.5", 0, 100 * S + S / 2 }, { "-100.5", 0, -100 * S - S / 2 },
		{ "-0.000000001", 0, -1 }, { "0", 0, 0 }, { "-0", 0, 0 }, { "7", 0, 7 * S },
		{ "9223372036.854775807", 0, INT64_MAX }, { "-9223372036", 0, -9223372036 * S },
		{ "9223372037", -2, 0 }, { "-99999999999", -2, 0 }, { "1.0000000001", -1, 0 },
		{ "1.", -1, 0 }, { ".5", -1, 0 }, { "-", -1, 0 }, { "", -1, 0 }, { "+1", -1, 0 },
		{ "1e3", -1, 0 }, { "1.5x", -1, 0 }, { "0x10", -1, 0 }, { " 1", -1, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		int64_t ns = 0;
		int ret = vk_timens_parse_offset(t[i].s, &ns);

		CHECK(ret == t[i].ret && (ret || ns == t[i].ns), "offset '%s': %d, %lld ns", t[i].s,
		      ret, (long long)ns);
	}
}

static void bounds(void)
{
	int64_t lo, hi;
	char b[32], said[256];

	vk_timens_offset_bounds(1000 * S + 1, &lo, &hi);
	CHECK(lo == -1000 * S - 1 && hi == 4611686019 * S - 1 - 1000 * S - 1,
	      "bounds: a clock at 1000.000000001 s takes -1000.000000001 to %s s",
	      vk_timens_seconds(b, sizeof(b), hi));
	CHECK(!strcmp(vk_timens_seconds(b, sizeof(b), -1), "-0.000000001") &&
	      !strcmp(vk_timens_seconds(b, sizeof(b), 3 * S), "3") &&
	      !strcmp(vk_timens_seconds(b, sizeof(b), -100 * S - S / 2), "-100.5") &&
	      !strcmp(vk_timens_seconds(b, sizeof(b), 0), "0") &&
	      !strcmp(vk_timens_seconds(b, sizeof(b), INT64_MIN), "-9223372036.854775808"),
	      "seconds: exact and short");
	CHECK(vk_timens_floor_sec(-1) == -1 && vk_timens_floor_sec(-S) == -1 &&
	      vk_timens_floor_sec(S - 1) == 0 && vk_timens_floor_sec(-S - 1) == -2,
	      "floor: the kernel's tv_sec of a negative offset");
	vk_timens_bounds_said(said, sizeof(said), 1000 * S, 2000 * S + S / 4);
	CHECK(strstr(said, "from 0 s to under 4611686019 s") &&
	      strstr(said, "MONOTONIC offset of -1000 to 4611685018.999999999 s") &&
	      strstr(said, "BOOTTIME one of -2000.25 to 4611684018.749999999 s"),
	      "bounds said: %s", said);
}

/* The time32 entries read past 2^31 s: ret and tv_sec by path, for both clocks. */
static void time32(struct vk_timens_readings *r, int path, int ret, int64_t sec)
{
	for (int k = 0; k < 2; k++) {
		r->y2038_ret[k][path] = ret;
		r->y2038_sec[k][path] = sec;
	}
}

static void y2038(void)
{
	const int64_t want = Y2038 + 3600, wrapped = want - (1LL << 32);
	struct vk_timens_outside o;
	struct vk_timens_readings r;
	struct vk_results rs;
	const struct vk_result *x;

	outside(&o, &past);
	o.time32 = 1;
	right(&r, &past);
	time32(&r, VK_PATH_SYSCALL, 0, wrapped);	/* the kernel's time32 ABI wraps */
	time32(&r, VK_PATH_VDSO, 0, wrapped);
	time32(&r, VK_PATH_LIBC, -1, 0);		/* EOVERFLOW */
	judge(&rs, &o, &r);
	x = find(&rs, "clock-gettime-monotonic", VK_PATH_VDSO, "past:y2038");
	CHECK(rs.fails == 0 && x && x->status == VK_PASS && strstr(x->detail, "wraps past 2^31 s"),
	      "y2038: a vDSO that wraps as the time32 syscall does passes, saying so");
	CHECK(status_of(&rs, "clock-gettime-boottime", VK_PATH_LIBC, "past:y2038") == VK_PASS,
	      "y2038: libc's EOVERFLOW passes");
	vk_results_free(&rs);

	time32(&r, VK_PATH_LIBC, 0, wrapped);
	time32(&r, VK_PATH_VDSO, 0, want);
	judge(&rs, &o, &r);
	CHECK(status_of(&rs, "clock-gettime-monotonic", VK_PATH_LIBC, "past:y2038") == VK_FAIL,
	      "y2038: libc's wrapped tv_sec fails");
	CHECK(status_of(&rs, "clock-gettime-boottime", VK_PATH_VDSO, "past:y2038") == VK_FAIL,
	      "y2038: a vDSO right where the time32 syscall wraps fails (it differs)");
	CHECK(status_of(&rs, "clock-gettime-monotonic", VK_PATH_SYSCALL, "past:y2038") == VK_PASS,
	      "y2038: the syscall is its own yardstick");
	vk_results_free(&rs);

	o.time32 = 0;
	judge(&rs, &o, &r);
	CHECK(!find(&rs, "clock-gettime-monotonic", VK_PATH_LIBC, "past:y2038"),
	      "y2038: no time32 rule on a 64-bit ABI");
	vk_results_free(&rs);

	outside(&o, &small);
	o.time32 = 1;
	right(&r, &small);
	time32(&r, VK_PATH_LIBC, 0, 5);
	judge(&rs, &o, &r);
	CHECK(!find(&rs, "clock-gettime-monotonic", VK_PATH_LIBC, "small:y2038"),
	      "y2038: no time32 rule before 2^31 s");
	vk_results_free(&rs);
}

static void children(void)
{
	struct {
		struct vk_timens_readings r;
		struct vk_result sent;
	} out;
	struct vk_timens_outside o;
	struct vk_results rs;
	const struct vk_result *x;

	outside(&o, &small);
	right(&out.r, &small);
	snprintf(out.r.impl_died[0], sizeof(out.r.impl_died[0]), "killed by signal 11");
	memset(&out.sent, 0, sizeof(out.sent));
	snprintf(out.sent.api, sizeof(out.sent.api), "clock-gettime-tai");
	snprintf(out.sent.check, sizeof(out.sent.check), "ordered");
	memset(&rs, 0, sizeof(rs));
	vk_timens_judge(&rs, &o, &out, sizeof(out));
	x = find(&rs, "clock-gettime-monotonic", VK_PATH_IMPL, "small:survives");
	CHECK(x && x->status == VK_FAIL &&
	      !strcmp(x->detail, "planted.so's time32 clock_gettime was killed by signal 11"),
	      "impl: a --impl call that died fails by the library's name (%s)", x ? x->detail : "none");
	CHECK(status_of(&rs, "clock-gettime-tai", VK_PATH_VDSO, "small:ordered") == VK_PASS,
	      "the child's own results are kept, named for the set");
	vk_results_free(&rs);

	memset(&rs, 0, sizeof(rs));
	vk_timens_judge(&rs, &o, &out, sizeof(out.r) - 1);
	CHECK(rs.n == 1 && status_of(&rs, "timens", VK_PATH_SYSCALL, "small:survives") == VK_FAIL,
	      "a child that died before it read the clocks fails 'survives'");
	vk_results_free(&rs);
}

int main(void)
{
	offsets();
	fractions();
	syntax();
	bounds();
	y2038();
	children();
	return test_exit();
}
