// SPDX-License-Identifier: MIT
/*
 * timens's rules on planted readings: no namespace is made and no clock
 * read. Outside, every clock reads 1000 s before and 1001 s after; the
 * set's offsets are MONOTONIC +100 s and BOOTTIME +200 s, or, for the
 * y2038 rules, past 2^31 s, where a time32 tv_sec wraps.
 */
#include <string.h>
#include <time.h>

#include "core/timens/timens_rules.h"
#include "tests/unit/test.h"

#define S 1000000000LL
#define Y2038 (1LL << 31)

static const struct vk_timens_set small = { "small", 100, 200 };
static const struct vk_timens_set past = { "past", Y2038 + 3600 - 1000, Y2038 + 3600 - 1000 };

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
		int64_t off = k == VK_TIMENS_MONO ? s->mono : k == VK_TIMENS_BOOT ? s->boot : 0;

		r->ns[i][0] = r->ns[i][1] = 1000 * S + S / 2 + off * S;
	}
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
	CHECK(rs.n == 2 * VK_TIMENS_NCLOCKS && rs.fails == 0,
	      "offsets: right readings pass, every clock on both paths (%zu results, %llu failed)",
	      rs.n, rs.fails);
	vk_results_free(&rs);

	/* A vDSO that ignores the namespace's page: MONOTONIC without its offset. */
	r.ns[mono][0] -= small.mono * S;
	judge(&rs, &o, &r);
	CHECK(rs.fails == 1 && status_of(&rs, "clock-gettime-monotonic", VK_PATH_VDSO,
					 "small:offset") == VK_FAIL,
	      "offsets: MONOTONIC on the vdso without its offset fails, alone");
	CHECK(status_of(&rs, "clock-gettime-monotonic", VK_PATH_SYSCALL, "small:offset") == VK_PASS,
	      "offsets: the syscall's right MONOTONIC passes beside it");
	vk_results_free(&rs);

	/* An offset where none belongs, and BOOTTIME given MONOTONIC's. */
	right(&r, &small);
	r.ns[real][0] += small.mono * S;
	r.ns[boot][1] += (small.mono - small.boot) * S;
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
	CHECK(rs.n == 2 * (VK_TIMENS_NCLOCKS - 1) && rs.fails == 1 &&
	      status_of(&rs, "clock-gettime-monotonic", VK_PATH_SYSCALL, "small:offset") == VK_FAIL,
	      "offsets: a clock absent outside is skipped, one unread inside fails");
	vk_results_free(&rs);
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
	y2038();
	children();
	return test_exit();
}
