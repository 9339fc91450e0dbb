// SPDX-License-Identifier: MIT
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/timens/timens_check.h"
#include "report/report.h"
#include "commands/commands.h"

static const char usage[] =
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
	"must fail with EOVERFLOW or be right.\n\n"
	"  -m, --monotonic SEC  one set with this MONOTONIC offset (and --boottime's)\n"
	"  -b, --boottime SEC   one set with this BOOTTIME offset (and --monotonic's)\n"
	"  -d, --duration SEC   verify's budget per API inside each namespace (default 0.2)\n"
	"  -F, --format FMT     text (default), ktap or json\n"
	"  -I, --impl LIB.so    also read LIB.so's time32 clock_gettime past 2^31 s\n"
	"  -h, --help           show this help\n\n"
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
	static const struct option longopts[] = {
		{ "monotonic", required_argument, NULL, 'm' },
		{ "boottime", required_argument, NULL, 'b' },
		{ "duration", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'F' },
		{ "impl", required_argument, NULL, 'I' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct opts o = { .seconds = 0.2, .call = { .format = VK_FMT_TEXT } };
	int c, status;

	snprintf(o.set.name, sizeof(o.set.name), "custom");
	while ((c = getopt_long(argc, argv, "m:b:d:F:I:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (vk_parse_signed(argv[0], "--monotonic", optarg, &o.set.mono))
				return VK_EXIT_USAGE;
			o.custom = 1;
			break;
		case 'b':
			if (vk_parse_signed(argv[0], "--boottime", optarg, &o.set.boot))
				return VK_EXIT_USAGE;
			o.custom = 1;
			break;
		case 'd':
			if (vk_parse_seconds(argv[0], "-d", optarg, &o.seconds))
				return VK_EXIT_USAGE;
			break;
		default:
			status = vk_call_option(argv[0], c, optarg, &o.call, usage, vk_format_parse,
						"text, ktap or json");
			if (status != VK_OPT_GO_ON)
				return status;
		}
	}
	if (optind < argc)
		return vk_usage_error(argv[0], "unexpected argument '%s'", argv[optind]);
	return run(argv[0], &o, NULL);
}
