// SPDX-License-Identifier: MIT
/*
 * vdsokit verify: the command that finds wrong values: every API on every
 * path checked against the kernel's own syscalls (core/verify).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/confirm/confirm.h"
#include "core/verify/verify.h"
#include "report/report.h"
#include "commands/commands.h"
#include "cli/repro.h"

static const char head[] =
	"Usage: vdsokit verify [OPTIONS] [API...]\n\n"
	"Check every vDSO API on every path against the kernel's own syscalls:\n"
	"errno for every clock id, ordering, monotonicity, resolutions, relations\n"
	"of clocks, getcpu, getrandom, threads, stack, signals and second\n"
	"boundaries (--list-rules). A check that could not look closely enough\n"
	"is a SKIP that says so. The text names what failed and what was not\n"
	"tested, and how closely the passing checks looked (\"Tested: ordering to\n"
	"within 0.0-2.4 us ...\"), each check's with --verbose, in KTAP and JSON.\n\n"
	"With no API, all of them; an API is a name from 'vdsokit list-apis'\n"
	"(clock-gettime-tai, getcpu, ...), clock-gettime-id:N for any clock id,\n"
	"or a function name (clock_gettime) for all its clocks.\n\n";

static const char tail[] =
	"\n"
	"An --impl library is loaded only in children: one that cannot be loaded\n"
	"or whose constructor fails is bad input, and a function that exits,\n"
	"crashes or hangs fails 'survives', naming the library (man vdsokit).\n"
	"\n"
	"Exit status: 0 all checks passed, 1 a check failed, 2 usage error, an\n"
	"--impl that cannot be loaded or an --output file not written, 3 vdsokit's\n"
	"own error (no fork, memory, ...) and no failure, 4 every check skipped.\n";

char *const vk_confirm_argv[] = { "vdsokit", "verify", "--plain-probe", NULL };

struct opts {
	double seconds;
	unsigned long long max_fails;
	unsigned long long threads;
	unsigned long long max_stack;
	int verbose;
	struct vk_call_opts call;
	const char *outdir;	/* --output, or NULL */
	const char *mlock_probe;	/* the mlockall rule's exec()ed vdsokit */
	const char *rules;	/* --rules, or NULL: all */
	int list_rules;
	const char *plain_probe;	/* a failure's plain call, made again afresh */
};

static enum vk_opt_result parse_opts(int argc, char **argv, struct opts *o)
{
	const struct vk_option opt[] = {
		VK_OPT('d', "duration", VK_OPT_SECONDS, "SECONDS", "budget per API and path (default 1)",
		  &o->seconds),
		VK_OPT(0, "max-fails", VK_OPT_COUNT, "N",
		  "stop repeating an API's checks after N failed\n"
		  "readings (default 10, 0: never); the other\n"
		  "APIs are still checked", &o->max_fails),
		VK_OPT_PATHS_ROW(&o->call, "paths to check: vdso,libc,syscall,impl,vsyscall\n"
				 "(default vdso,libc, and impl with --impl)"),
		VK_OPT_IMPL_ROW(&o->call, "also check the __vdso_* functions LIB.so exports"),
		VK_OPT(0, "threads", VK_OPT_COUNT, "N",
		  "threads for the cross-CPU check (default: one per CPU)", &o->threads, .lo = 1, .hi = 64),
		VK_OPT(0, "rules", VK_OPT_STRING, "LIST",
		  "judge only these rules and families (--list-rules)", &o->rules),
		VK_OPT(0, "list-rules", VK_OPT_FLAG, NULL, "list the rules, by family, and exit",
		  &o->list_rules),
		VK_OPT(0, "max-stack", VK_OPT_COUNT, "BYTES",
		  "fail a function using more stack (default: none)", &o->max_stack, .lo = 1,
		  .hi = 1ull << 40),
		VK_OPT_FORMAT_ROWS(&o->call.format, VK_DOC_RESULTS, ""),
		VK_OPT_VERBOSE_ROW(&o->verbose),
		VK_OPT('o', "output", VK_OPT_CALL, "DIR",
		  "write DIR/repro/NAME.txt (a report to send) and\n"
		  "NAME.c (a standalone reproducer) per finding\n"
		  "(man vdsokit: REPRODUCERS); DIR made if missing",
		  &o->outdir, .call = vk_output_dir),
		/* The mlockall rule's vdsokit, exec()ed afresh. */
		VK_OPT(0, "mlock-probe", VK_OPT_STRING, "SPEC", NULL, &o->mlock_probe),
		/* A failure's plain call, made again in a vdsokit exec()ed afresh. */
		VK_OPT(0, "plain-probe", VK_OPT_STRING, "SPEC", NULL, &o->plain_probe),
		VK_OPT_HELP_ROW,
	};
	const struct vk_options opts = VK_OPTIONS(head, tail, opt);
	enum vk_opt_result r = vk_options_parse(&opts, argc, argv);

	return r == VK_OPT_OK ? vk_verbose_text(o->verbose, o->call.format) : r;
}

static int exit_status(const struct vk_results *rs)
{
	return vk_exit_of(rs->fails, rs->errors, vk_results_tally(rs).skip < rs->n);
}

static int run(const struct opts *o, struct vk_target *t, int nt)
{
	struct vk_results rs = { .max_fails = o->max_fails };
	unsigned char on[VK_VERIFY_MAX_RULES];
	static char *const exec_argv[] = { "vdsokit", "verify", NULL };
	struct vk_verify v = { .rs = &rs, .seconds = o->seconds, .paths = o->call.paths,
			       .threads = o->threads, .max_stack = o->max_stack, .aux = 1,
			       .exec_argv = exec_argv, .signals = 1 };
	struct vk_sysinfo si;
	struct vk_report rep = { .command = "verify", .version = vk_version, .sys = &si,
				 .seconds = o->seconds, .paths = o->call.paths, .rs = &rs };
	const struct vk_doc doc = { .command = "verify", .kind = VK_DOC_RESULTS, .results = &rep };
	struct vk_verify_edges edges;
	struct vk_callset cs;
	struct vk_image im;
	char err[256];
	int have_vdso = vk_image_open_live(&im) == 0;
	int status;

	if (o->rules && vk_verify_rules_select(o->rules, on, err, sizeof(err))) {
		fprintf(stderr, "%s: no rule or family '%s' ('%s --list-rules' lists them)\n", vk_progname,
			err, vk_progname);
		return VK_EXIT_USAGE;
	}
	v.rules = o->rules ? on : NULL;
	if (vk_callset_init(&cs, have_vdso ? &im : NULL, o->call.impl, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", vk_progname, err);
		return VK_EXIT_USAGE;
	}
	v.cs = &cs;
	if (o->call.format == VK_FMT_VDSOTEST)
		v.moved = vk_report_vdsotest_moved;
	vk_verify_edges_start(&edges, &v, t, nt);
	for (int i = 0; i < nt; i++) {
		vk_run_progress((double)i / nt);
		vk_verify_run(&v, &t[i]);
	}
	vk_verify_edges_finish(&edges);
	vk_verify_drop_unwanted(&v);
	vk_results_finish(&rs);
	/* Where findings are made (all, --output), each is confirmed first. */
	if (vk_all || o->outdir)
		vk_confirm_results(&rs, vk_confirm_argv, cs.impl_path);
	rep.stopped = vk_results_cut(&rs) > 0;
	rep.verbose = o->verbose;
	rep.order = vk_results_bounds(&rs, VK_BOUND_ORDER);
	rep.skew = vk_results_bounds(&rs, VK_BOUND_SKEW);
	rep.stack = vk_results_bounds(&rs, VK_BOUND_STACK);
	vk_sysinfo_read(&si);
	vk_run_render(o->call.format, &doc);
	status = exit_status(&rs);
	if (o->outdir && vk_repro_write_results(vk_version, "verify", o->outdir, &rs))
		status = VK_EXIT_USAGE;
	vk_run_keep(&rs);
	return status;
}

#define DEFAULT_OPTS { .seconds = 1, .max_fails = 10 }
#define DEFAULT_PATHS (VK_PATH_BIT(VK_PATH_VDSO) | VK_PATH_BIT(VK_PATH_LIBC))

int cmd_verify(int argc, char **argv)
{
	struct opts o = DEFAULT_OPTS;
	struct vk_target t[VK_NFUNCS];
	enum vk_opt_result r = parse_opts(argc, argv, &o);
	int nt;

	if (r == VK_OPT_OK && o.list_rules) {
		for (size_t i = 0; i < vk_verify_nrules; i++)
			printf("%-13s %-15s %s\n", vk_verify_rules[i].family, vk_verify_rules[i].name,
			       vk_verify_rules[i].what);
		return VK_EXIT_OK;
	}
	if (r == VK_OPT_OK && o.plain_probe)
		return vk_confirm_probe(o.plain_probe, o.call.impl, STDOUT_FILENO) ?
			       VK_EXIT_USAGE : VK_EXIT_OK;
	if (r == VK_OPT_OK && o.mlock_probe)
		return vk_verify_mlock_probe(o.mlock_probe, o.call.impl, STDOUT_FILENO) ?
			       VK_EXIT_USAGE : VK_EXIT_OK;
	if (r == VK_OPT_OK)
		r = vk_call_paths(&o.call, DEFAULT_PATHS);
	if (r == VK_OPT_OK)
		r = vk_call_targets(argc, argv, t, &nt);
	return r == VK_OPT_OK ? run(&o, t, nt) : vk_opt_exit(r);
}
