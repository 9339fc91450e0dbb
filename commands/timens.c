// SPDX-License-Identifier: MIT
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/timens/timens_check.h"
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
	const struct vk_doc doc = { .command = "timens", .results = &rep };
	const char *unsupported = vk_timens_unsupported();
	struct vk_timens_check c = { .seconds = o->seconds };
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
	vk_timens_check_init(&c, &cs);
	n = o->custom ? 1 : vk_timens_default_sets(sets, 4);
	if (o->custom)
		sets[0] = o->set;
	/* Without namespaces, or the right to make one, the report is one SKIP. */
	for (int i = 0; i < n && !unsupported; i++) {
		int e = vk_timens_check_set(&c, &sets[i], &rs, err, sizeof(err));

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
	vk_render(vk_step_out(step), o->call.format, &doc);
	if (status == VK_EXIT_OK && rs.fails)
		status = VK_EXIT_FAIL;
	vk_step_keep(step, &rs);
	return status;
}

int vk_run_timens(const char *cmd, enum vk_format format, struct vk_step *step)
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
		VK_OPT_FORMAT_ROWS(&o.call.format,
				   VK_FORMATS(VK_FMT_TEXT, VK_FMT_KTAP, VK_FMT_JSON),
				   "text (default), ktap or json"),
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
