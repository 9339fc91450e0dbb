// SPDX-License-Identifier: MIT
/*
 * vdsokit fallback: tells whether each call stays in userspace or falls
 * back to a syscall, and why (core/fallback's seccomp trap).
 */
#include <stdio.h>
#include <string.h>

#include "core/fallback/fallback.h"
#include "core/call/targets.h"
#include "report/report.h"
#include "commands/commands.h"

static const char head[] =
	"Usage: vdsokit fallback [OPTIONS] [API...]\n\n"
	"Prove whether each call stays in userspace: it is made in a child under a\n"
	"seccomp filter that traps every syscall, of any ABI (clock_gettime as\n"
	"much as a read() or adjtimex()), and reported as 'userspace' or 'falls\n"
	"back to SYSCALL' with the reason: the vDSO does not serve that clock, the\n"
	"clocksource is not vDSO-capable, or libc makes the syscall itself. With no\n"
	"API, every function and every clock id; APIs as for verify.\n\n";

static const char tail[] =
	"\n"
	"Exit status: 0 done, 1 a required API falls back or a probe died,\n"
	"2 usage error or an --impl that cannot be loaded (see verify),\n"
	"3 vdsokit's own error kept probes from running (no fork, seccomp refused\n"
	"its filter), 4 nothing could be probed.\n";

struct opts {
	const char *require;
	struct vk_call_opts call;
};

static enum vk_opt_result parse_opts(int argc, char **argv, struct opts *o)
{
	const struct vk_option opt[] = {
		VK_OPT('r', "require", VK_OPT_STRING, "LIST",
		  "exit 1 if any of these APIs (comma-separated) falls\n"
		  "back on the vdso path: a CI gate", &o->require),
		VK_OPT_PATHS_ROW(&o->call, "vdso,libc,impl,vsyscall (default vdso,libc, and impl\n"
				 "with --impl)"),
		VK_OPT_IMPL_ROW(&o->call, "also probe the __vdso_* functions LIB.so exports"),
		VK_OPT_FORMAT_ROWS(&o->call.format, VK_DOC_RESULTS, ""),
		VK_OPT_HELP_ROW,
	};
	const struct vk_options opts = VK_OPTIONS(head, tail, opt);

	return vk_options_parse(&opts, argc, argv);
}

/* Whether api (of function f) is in the comma-separated --require list. */
static int required(const char *list, const char *api, enum vk_func f)
{
	size_t len;

	for (const char *p = list; p && *p; p += len + (p[len] == ',')) {
		len = strcspn(p, ",");
		if ((strlen(api) == len && !strncmp(p, api, len)) ||
		    (strlen(vk_funcs[f].name) == len && !strncmp(p, vk_funcs[f].name, len)))
			return 1;
	}
	return 0;
}

/* Each name in --require must be an API that a target can hold. */
static int check_require(const char *list)
{
	struct vk_target t[VK_NFUNCS];
	char name[64];
	size_t len;
	int n = 0;

	/* An empty list would gate nothing, and exit 0 as a gate passed. */
	if (!*list)
		return vk_usage_error("--require: no API given; name those that must stay "
				      "in userspace, such as clock-gettime-monotonic,gettimeofday");
	for (const char *p = list; *p; p += len + (p[len] == ',')) {
		len = strcspn(p, ",");
		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		n = 0;
		if (!len || len >= sizeof(name) || vk_targets_add(t, &n, name))
			return vk_usage_error("--require: unknown API '%s'", name);
	}
	return 0;
}

static void probe(const struct vk_callset *cs, const struct opts *o, const struct vk_sysinfo *si,
		  enum vk_path p, enum vk_func f, const char *api, int clock,
		  struct vk_results *rs)
{
	struct vk_result *r = vk_results_add(rs, api, p, "fallback");
	struct vk_fallback fb;

	if (!vk_callset_has(cs, p, f)) {
		vk_result_skip(r, "%s", cs->why[p][f]);
		return;
	}
	vk_fallback_probe(cs, p, f, clock, &fb);
	r->calls = 1;
	r->ran = fb.kind == VK_USERSPACE ? VK_RAN_USERSPACE :
		 fb.kind == VK_SYSCALL ? VK_RAN_SYSCALL : VK_RAN_UNKNOWN;
	if (fb.kind == VK_PROBE_NOT_RUN)
		vk_result_error(rs, r, "not probed: %s", fb.why);
	else if (fb.kind == VK_PROBE_DIED && p == VK_PATH_IMPL)
		vk_result_fail(rs, r, "the probe of %s's %s %s", cs->impl_path, vk_funcs[f].name,
			       fb.why);
	else if (fb.kind == VK_PROBE_DIED)
		vk_result_fail(rs, r, "the probe %s", fb.why);
	else if (fb.kind == VK_USERSPACE)
		snprintf(r->detail, sizeof(r->detail), "userspace");
	else if (p == VK_PATH_VDSO && required(o->require, api, f))
		vk_result_fail(rs, r, "falls back to %s: %s (required to stay in userspace)",
			       fb.syscall, vk_fallback_reason(p, f, clock, si->cs_vdso));
	else
		snprintf(r->detail, sizeof(r->detail), "falls back to %s: %s", fb.syscall,
			 vk_fallback_reason(p, f, clock, si->cs_vdso));
}

static void probe_target(const struct vk_callset *cs, const struct opts *o,
			 const struct vk_sysinfo *si, const struct vk_target *t,
			 struct vk_results *rs)
{
	char api[40];

	for (int p = 0; p < VK_NPATHS; p++) {
		if (!(o->call.paths & VK_PATH_BIT(p)) || p == VK_PATH_SYSCALL)
			continue;
		if (vk_funcs[t->func].shape != VK_SHAPE_CLOCK_TS) {
			probe(cs, o, si, p, t->func, vk_funcs[t->func].name, 0, rs);
			continue;
		}
		for (int i = 0; i < t->nclocks; i++) {
			vk_clock_api(api, sizeof(api), t->func, &t->clocks[i]);
			probe(cs, o, si, p, t->func, api, t->clocks[i].id, rs);
		}
	}
}

static int run(const struct opts *o, const struct vk_target *t, int nt)
{
	const char *why = vk_fallback_unsupported();
	struct vk_results rs = { 0 };
	struct vk_sysinfo si;
	struct vk_report rep = { .command = "fallback", .version = vk_version, .sys = &si,
				 .paths = o->call.paths, .rs = &rs };
	const struct vk_doc doc = { .command = "fallback", .kind = VK_DOC_RESULTS,
				    .results = &rep };
	struct vk_callset cs;
	struct vk_image im;
	char err[256];
	int have_vdso = vk_image_open_live(&im) == 0, status;
	size_t measured = 0;

	if (why) {
		fprintf(stderr, "%s: %s\n", vk_progname, why);
		return VK_EXIT_SKIP;
	}
	if (vk_callset_init(&cs, have_vdso ? &im : NULL, o->call.impl, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", vk_progname, err);
		return VK_EXIT_USAGE;
	}
	vk_sysinfo_read(&si);
	vk_fallback_clocksource(have_vdso ? &cs : NULL, &si);
	for (int i = 0; i < nt; i++)
		probe_target(&cs, o, &si, &t[i], &rs);
	vk_results_finish(&rs);
	rep.text = vk_report_fallback_text;
	vk_run_render(o->call.format, &doc);
	for (size_t i = 0; i < rs.n; i++)
		measured += rs.r[i]->status != VK_SKIP;
	status = vk_exit_of(rs.fails, rs.errors, measured > 0);
	vk_run_keep(&rs);
	return status;
}

#define DEFAULT_PATHS (VK_PATH_BIT(VK_PATH_VDSO) | VK_PATH_BIT(VK_PATH_LIBC))

int cmd_fallback(int argc, char **argv)
{
	struct opts o = { 0 };
	struct vk_target t[VK_NFUNCS];
	enum vk_opt_result r = parse_opts(argc, argv, &o);
	int nt;

	if (r == VK_OPT_OK)
		r = vk_call_paths(&o.call, DEFAULT_PATHS);
	if (r == VK_OPT_OK && o.require && check_require(o.require))
		r = VK_OPT_BAD;
	if (r == VK_OPT_OK)
		r = vk_call_targets(argc, argv, t, &nt);
	return r == VK_OPT_OK ? run(&o, t, nt) : vk_opt_exit(r);
}
