// SPDX-License-Identifier: MIT
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/timens/timens.h"
#include "core/verify/verify.h"
#include "report/report.h"
#include "commands/commands.h"

static const char head[] =
	"Usage: vdsokit timens [--monotonic SEC] [--boottime SEC] [-d SEC] [--impl LIB.so]\n"
	"                      [--format FMT]\n\n"
	"Check the vDSO inside time namespaces, as containers use them. For each set\n"
	"of offsets (by default: small, near and past 2^31 s, and the most negative\n"
	"the kernel accepts), a child in a new time namespace checks every clock on\n"
	"the vdso path against the syscall as verify does; the clocks read inside\n"
	"differ from the same clocks outside by exactly the offset for MONOTONIC,\n"
	"MONOTONIC_COARSE, MONOTONIC_RAW, BOOTTIME and BOOTTIME_ALARM and by nothing\n"
	"for any other clock; the parent's namespace is unaffected. On a 32-bit\n"
	"ABI, each time32 entry is read past 2^31 s (y2038): the vDSO's must do\n"
	"what the kernel's time32 syscall does (which wraps tv_sec), and libc's\n"
	"must fail with EOVERFLOW or be right.\n\n";

static const char tail[] =
	"\n"
	"LIB.so's entry is called in a child of its own: its crash, exit or hang\n"
	"(5 s) fails the impl path's 'survives' check, which names the library.\n"
	"\n"
	"Exit status: 0 all checks passed, 1 a check failed (or --impl's call\n"
	"died), 2 usage error or an --impl that cannot be loaded (see verify),\n"
	"4 no time namespace could be made (no CAP_SYS_TIME, or no CONFIG_TIME_NS).\n";

/* The clocks whose readings inside and outside are compared, and the
 * offset each must show (1 MONOTONIC's, 2 BOOTTIME's, 0 none). */
static const struct {
	int id;
	int offset;
} clocks[] = {
	{ CLOCK_REALTIME, 0 }, { CLOCK_MONOTONIC, 1 }, { CLOCK_MONOTONIC_RAW, 1 },
	{ CLOCK_REALTIME_COARSE, 0 }, { CLOCK_MONOTONIC_COARSE, 1 }, { CLOCK_BOOTTIME, 2 },
	{ CLOCK_REALTIME_ALARM, 0 }, { CLOCK_BOOTTIME_ALARM, 2 }, { CLOCK_TAI, 0 },
};

#define NCLOCKS (sizeof(clocks) / sizeof(clocks[0]))
#define NONE INT64_MIN
static const enum vk_path read_paths[] = { VK_PATH_VDSO, VK_PATH_SYSCALL };

/* Read inside the namespace: each clock on each path, then the time32 entry's view. */
struct readings {
	int64_t ns[NCLOCKS][2];
	int64_t y2038_sec[2][VK_NPATHS];	/* MONOTONIC, BOOTTIME by time32 */
	int y2038_ret[2][VK_NPATHS];
	char impl_died[2][64];	/* how --impl's call died, or "" */
};

struct ctx {
	const struct vk_callset *cs;
	double seconds;
	struct vk_target t[VK_NFUNCS];
	int nt;
	enum vk_func gettime;	/* the 64-bit-time clock_gettime of this ABI */
	int64_t mono_offset;	/* the set's, in seconds */
};

static int64_t read_clock(vk_clock_fn fn, int t64, int id)
{
	struct vk_ts ts;

	if (!fn || vk_clock_call(fn, t64, id, &ts))
		return NONE;
	return vk_ts_ns(&ts);
}

#define IMPL_TIMEOUT 5.0

struct impl_read {
	vk_clock_fn fn;
	int id;
	int ret;
	struct vk_ts ts;
};

static void impl_child(void *arg, int fd)
{
	struct impl_read *i = arg;

	i->ret = vk_clock_call(i->fn, 0, i->id, &i->ts);
	vk_write_all(fd, i, sizeof(*i));
}

/*
 * The --impl library's time32 clock_gettime, in a child of its own under
 * a watchdog: its crash, exit or hang is the library's, told within
 * seconds, not the namespace's child's; 1 and how in died if it failed.
 */
static int read_impl(vk_clock_fn fn, int id, struct vk_ts *ts, char *died, size_t len)
{
	struct impl_read i = { .fn = fn, .id = id, .ret = 1 };
	struct vk_isolated out;

	if (vk_isolate(impl_child, &i, IMPL_TIMEOUT, &out)) {
		snprintf(died, len, "could not be run: fork failed");
		return 1;
	}
	if (out.len == sizeof(i))
		memcpy(&i, out.data, sizeof(i));
	else
		vk_isolated_describe(&out, IMPL_TIMEOUT, died, len);
	vk_isolated_free(&out);
	*ts = i.ts;
	return i.ret;
}

/* On a 32-bit ABI, what the time32 clock_gettime says past 2^31 s. */
static void read_time32(const struct ctx *c, struct readings *r)
{
	static const int ids[2] = { CLOCK_MONOTONIC, CLOCK_BOOTTIME };

	for (int k = 0; k < 2; k++) {
		r->impl_died[k][0] = '\0';
		for (int p = 0; p < VK_NPATHS; p++) {
			vk_clock_fn fn = c->cs->fn[p][VK_FN_CLOCK_GETTIME].clock;
			struct vk_ts ts = { 0, 0 };

			/* Once is enough to tell that it dies, and each time costs. */
			if (fn && p == VK_PATH_IMPL && k && r->impl_died[0][0])
				r->y2038_ret[k][p] = 1;
			else if (fn && p == VK_PATH_IMPL)
				r->y2038_ret[k][p] = read_impl(fn, ids[k], &ts, r->impl_died[k],
							       sizeof(r->impl_died[k]));
			else
				r->y2038_ret[k][p] = fn ? vk_clock_call(fn, 0, ids[k], &ts) : 1;
			r->y2038_sec[k][p] = ts.sec;
		}
	}
}

static void inner(void *arg, int fd)
{
	struct ctx *c = arg;
	struct vk_results rs = { 0 };
	struct vk_verify v = { .cs = c->cs, .rs = &rs, .seconds = c->seconds,
			       .paths = VK_PATH_BIT(VK_PATH_VDSO), .mono_offset = c->mono_offset };
	int t64 = vk_funcs[c->gettime].time64;
	struct readings r;

	for (size_t i = 0; i < NCLOCKS; i++) {
		for (int k = 0; k < 2; k++)
			r.ns[i][k] = read_clock(c->cs->fn[read_paths[k]][c->gettime].clock, t64,
						clocks[i].id);
	}
	read_time32(c, &r);
	vk_write_all(fd, &r, sizeof(r));
	for (int i = 0; i < c->nt; i++)
		vk_verify_run(&v, &c->t[i]);
	for (size_t i = 0; i < rs.n; i++)
		vk_write_all(fd, rs.r[i], sizeof(struct vk_result));
}

static struct vk_result *add_result(struct vk_results *rs, const char *api, enum vk_path p,
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

/* Inside = outside + offset, with outside read just before and after. */
static void check_offsets(struct vk_results *rs, const struct vk_timens_set *s,
			  const struct readings *r, const int64_t *before, const int64_t *after)
{
	char api[40], fail[256];

	for (size_t i = 0; i < NCLOCKS; i++) {
		int64_t off = clocks[i].offset == 1 ? s->mono : clocks[i].offset == 2 ? s->boot : 0;
		struct vk_clock c = { .id = clocks[i].id };

		snprintf(c.name, sizeof(c.name), "%s", vk_clock_name(clocks[i].id));
		vk_clock_api(api, sizeof(api), VK_FN_CLOCK_GETTIME, &c);
		if (before[i] == NONE)
			continue;	/* a clock this machine lacks (no RTC: no alarm clocks) */
		off *= 1000000000;
		for (int k = 0; k < 2; k++) {
			int64_t in = r->ns[i][k];
			int ok = in != NONE && before[i] + off <= in && in <= after[i] + off;

			snprintf(fail, sizeof(fail), "clock %d read %lld ns inside; outside it read %lld then %lld ns, so with the offset of %lld s %lld to %lld",
				 clocks[i].id, (long long)in, (long long)before[i], (long long)after[i],
				 (long long)(off / 1000000000), (long long)(before[i] + off),
				 (long long)(after[i] + off));
			add_result(rs, api, read_paths[k], s, "offset", ok ? NULL : fail);
		}
	}
}

/* What a time32 clock_gettime did past 2^31 s. */
enum y2038 { Y2038_FAILED, Y2038_RIGHT, Y2038_WRAPPED };

static enum y2038 y2038_of(int ret, int64_t sec, int64_t want)
{
	if (ret)
		return Y2038_FAILED;
	return sec < want ? Y2038_WRAPPED : Y2038_RIGHT;
}

/*
 * Past 2^31 s the kernel's own time32 syscall wraps tv_sec: its ABI has
 * no EOVERFLOW, and clock_gettime64 is its fix. The vDSO's time32 entry
 * must do what that syscall does; doing otherwise is a finding. libc's
 * time32 clock_gettime is libc's own interface and must fail (EOVERFLOW)
 * or be right, as glibc's does: a wrapped tv_sec there is a y2038 bug.
 */
static void check_y2038(struct vk_results *rs, const struct vk_timens_set *s,
			const struct ctx *c, const struct readings *r, const int64_t *before)
{
	static const char *const apis[2] = { "clock-gettime-monotonic", "clock-gettime-boottime" };
	static const char *const what[] = { "failed", "was right", "wrapped" };
	static const int idx[2] = { 1, 5 };	/* their places in clocks[] */
	char fail[192];

	if (sizeof(long) != 4)
		return;
	for (int k = 0; k < 2; k++) {
		int64_t want = before[idx[k]] / 1000000000 + (k ? s->boot : s->mono);
		enum y2038 sys = y2038_of(r->y2038_ret[k][VK_PATH_SYSCALL],
					  r->y2038_sec[k][VK_PATH_SYSCALL], want);

		if (want < (1ll << 31))
			continue;
		for (int p = 0; p < VK_NPATHS; p++) {
			enum y2038 got = y2038_of(r->y2038_ret[k][p], r->y2038_sec[k][p], want);
			int bad = p == VK_PATH_LIBC ? got == Y2038_WRAPPED : got != sys;
			struct vk_result *res;

			if (!c->cs->fn[p][VK_FN_CLOCK_GETTIME].p)
				continue;
			snprintf(fail, sizeof(fail), "the time32 clock_gettime returned %d with tv_sec %lld; the clock is at %lld s%s%s",
				 r->y2038_ret[k][p], (long long)r->y2038_sec[k][p], (long long)want,
				 p == VK_PATH_LIBC ? "" : "; the time32 syscall ",
				 p == VK_PATH_LIBC ? "" : what[sys]);
			res = add_result(rs, apis[k], p, s, "y2038", bad ? fail : NULL);
			if (!bad && got == Y2038_WRAPPED)
				snprintf(res->detail, sizeof(res->detail), "wraps past 2^31 s (tv_sec %lld at %lld s), as the kernel's time32 ABI does",
					 (long long)r->y2038_sec[k][p], (long long)want);
		}
	}
}

/* A --impl call that died is a failure of the library's, by name. */
static void check_impl(struct vk_results *rs, const struct vk_timens_set *s,
		       const struct ctx *c, const struct readings *r)
{
	static const char *const apis[2] = { "clock-gettime-monotonic", "clock-gettime-boottime" };
	char fail[384];

	for (int k = 0; k < 2; k++) {
		if (!r->impl_died[k][0])
			continue;
		snprintf(fail, sizeof(fail), "%s's time32 clock_gettime %s%.63s",
			 c->cs->impl_path, strncmp(r->impl_died[k], "killed", 6) ? "" : "was ",
			 r->impl_died[k]);
		add_result(rs, apis[k], VK_PATH_IMPL, s, "survives", fail);
	}
}

static void read_outside(const struct ctx *c, int64_t *ns)
{
	for (size_t i = 0; i < NCLOCKS; i++)
		ns[i] = read_clock(c->cs->fn[VK_PATH_SYSCALL][c->gettime].clock,
				   vk_funcs[c->gettime].time64, clocks[i].id);
}

static void read_own_offsets(char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/timens_offsets", "re");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;

	buf[n] = '\0';
	if (f)
		fclose(f);
}

/* One set: 0 if it ran, else the errno that kept the namespace from being made. */
static int run_set(struct ctx *c, const struct vk_timens_set *s, struct vk_results *rs,
		   char *why, size_t len)
{
	int64_t before[NCLOCKS], after[NCLOCKS];
	char own_before[256], own_after[256];
	double timeout = 8 * c->seconds * c->nt + 30;
	struct vk_isolated out;
	struct readings r;
	int err;

	c->mono_offset = s->mono;
	read_own_offsets(own_before, sizeof(own_before));
	read_outside(c, before);
	if (vk_timens_isolate(s, inner, c, timeout, &out, why, len, &err))
		return err ? err : -1;
	read_outside(c, after);
	read_own_offsets(own_after, sizeof(own_after));
	if (out.len < sizeof(r)) {
		add_result(rs, "timens", VK_PATH_SYSCALL, s, "survives", "the child in the namespace died before it read the clocks");
	} else {
		memcpy(&r, out.data, sizeof(r));
		check_offsets(rs, s, &r, before, after);
		check_y2038(rs, s, c, &r, before);
		check_impl(rs, s, c, &r);
		for (size_t off = sizeof(r); off + sizeof(struct vk_result) <= out.len;
		     off += sizeof(struct vk_result)) {
			struct vk_result x;
			char rule[sizeof(x.check)];

			memcpy(&x, out.data + off, sizeof(x));
			memcpy(rule, x.check, sizeof(rule));
			snprintf(x.check, sizeof(x.check), "%.23s:%.23s", s->name, rule);
			vk_results_append(rs, &x);
		}
	}
	add_result(rs, "timens", VK_PATH_SYSCALL, s, "parent-unaffected",
		   strcmp(own_before, own_after) ? "this process's own time namespace offsets changed" : NULL);
	vk_isolated_free(&out);
	return 0;
}

static void clock_targets(struct ctx *c)
{
	static const char *const names[] = { "realtime", "monotonic", "process-cputime",
		"thread-cputime", "monotonic-raw", "realtime-coarse", "monotonic-coarse",
		"boottime", "realtime-alarm", "boottime-alarm", "tai" };
	const char *prefix[2] = { "clock-gettime-", "clock-getres-" };
	char api[48];

	if (sizeof(long) == 4) {
		prefix[0] = "clock-gettime64-";
		prefix[1] = "clock-getres-time64-";
	}
	c->nt = 0;
	for (int f = 0; f < 2; f++) {
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			snprintf(api, sizeof(api), "%s%s", prefix[f], names[i]);
			vk_targets_add(c->t, &c->nt, api);
		}
	}
	c->gettime = sizeof(long) == 4 ? VK_FN_CLOCK_GETTIME64 : VK_FN_CLOCK_GETTIME;
}

struct opts {
	int custom;
	struct vk_timens_set set;
	double seconds;
	struct vk_call_opts call;	/* its format and impl: timens has one set of paths */
};

static int run(const char *cmd, struct opts *o, struct vk_step *step)
{
	struct vk_timens_set sets[4];
	struct vk_results rs = { 0 };
	struct vk_report rep = { .command = "timens", .version = vk_version,
				 .seconds = o->seconds, .rs = &rs,
				 .paths = VK_PATH_BIT(VK_PATH_VDSO) | VK_PATH_BIT(VK_PATH_SYSCALL) };
	const char *unsupported = vk_timens_unsupported();
	struct ctx c = { .seconds = o->seconds };
	struct vk_callset cs;
	struct vk_image im;
	char err[256];
	int n, have_vdso = vk_image_open_live(&im) == 0, status = VK_EXIT_OK;

	if (o->call.impl)
		rep.paths |= VK_PATH_BIT(VK_PATH_IMPL);
	if (vk_callset_init(&cs, have_vdso ? &im : NULL, o->call.impl, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", cmd, err);
		return VK_EXIT_USAGE;
	}
	c.cs = &cs;
	clock_targets(&c);
	n = o->custom ? 1 : vk_timens_default_sets(sets, 4);
	if (o->custom)
		sets[0] = o->set;
	/* Without namespaces, or the right to make one, the report is one SKIP. */
	for (int i = 0; i < n && !unsupported; i++) {
		int e = run_set(&c, &sets[i], &rs, err, sizeof(err));

		if (e && !o->custom && i == 0) {
			unsupported = err;
			break;
		}
		if (e) {
			fprintf(stderr, "%s: set %s: %s\n", cmd, sets[i].name, err);
			status = o->custom && e == 1 ? VK_EXIT_SKIP : VK_EXIT_USAGE;
			break;
		}
	}
	if (unsupported) {
		fprintf(stderr, "%s: SKIP: %s\n", cmd, unsupported);
		vk_result_skip(vk_results_add(&rs, "timens", VK_PATH_SYSCALL, "all"), "%s", unsupported);
		status = VK_EXIT_SKIP;
	}
	vk_report_results(vk_step_out(step), o->call.format, &rep, vk_report_text);
	if (status == VK_EXIT_OK && rs.fails)
		status = VK_EXIT_FAIL;
	vk_step_keep(step, &rs);
	return status;
}

int vk_run_timens(const char *cmd, int format, struct vk_step *step)
{
	struct opts o = { .seconds = 0.2, .call = { .format = format } };

	return run(cmd, &o, step);
}

int cmd_timens(int argc, char **argv)
{
	struct opts o = { .seconds = 0.2, .call = { .format = VK_FMT_TEXT } };
	const struct vk_option opt[] = {
		VK_OPT(0, "monotonic", VK_OPT_SIGNED, "SEC",
		  "one set with this MONOTONIC offset (and --boottime's)", &o.set.mono,
		  .given = &o.custom),
		VK_OPT(0, "boottime", VK_OPT_SIGNED, "SEC",
		  "one set with this BOOTTIME offset (and --monotonic's)", &o.set.boot,
		  .given = &o.custom),
		VK_OPT('d', "duration", VK_OPT_SECONDS, "SEC",
		  "verify's budget per API inside each namespace (default 0.2)", &o.seconds),
		VK_OPT_FORMAT_ROW(&o.call.format, vk_format_parse, "text, ktap or json",
				  "text (default), ktap or json"),
		VK_OPT_OLD_FORMAT_ROW(&o.call.format, vk_format_parse, "text, ktap or json"),
		VK_OPT_IMPL_ROW(&o.call, "also read LIB.so's time32 clock_gettime past 2^31 s"),
		VK_OPT_HELP_ROW,
	};
	const struct vk_options opts = VK_OPTIONS(head, tail, opt);
	enum vk_opt_result r;

	snprintf(o.set.name, sizeof(o.set.name), "custom");
	r = vk_options_parse(argv[0], &opts, argc, argv);
	if (r != VK_OPT_OK)
		return vk_opt_exit(r);
	if (optind < argc)
		return vk_usage_error(argv[0], "unexpected argument '%s'", argv[optind]);
	return run(argv[0], &o, NULL);
}
