// SPDX-License-Identifier: MIT
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/verify/verify.h"
#include "report/report.h"
#include "commands/commands.h"

static const char usage[] =
	"Usage: vdsokit verify [OPTIONS] [API...]\n\n"
	"Check every vDSO API on every path against the kernel's own syscalls:\n"
	"return values and errno for every clock id, ordering, normalization,\n"
	"monotonicity, resolutions, relations between clocks, gettimeofday's\n"
	"timezone, time(), getcpu on each CPU, getrandom's lengths, flags and\n"
	"fork safety, and cross-CPU ordering across threads. A check that could\n"
	"not look closely enough is a SKIP that says so: the cross-CPU one where\n"
	"some two threads never read within 10 us of each other. A coarse clock\n"
	"stepping by part of a tick is a note (as at a clocksource change), not\n"
	"a failure.\n\n"
	"With no API, all of them; an API is a name from 'vdsokit list-apis'\n"
	"(clock-gettime-tai, getcpu, ...), clock-gettime-id:N for any clock id,\n"
	"or a function name (clock_gettime) for all its clocks.\n\n"
	"  -d, --duration SECONDS  budget per API and path (default 1)\n"
	"  -f, --max-fails N       stop repeating an API's checks after N failed\n"
	"                          readings (default 10, 0: never); the other\n"
	"                          APIs are still checked\n"
	"  -p, --paths LIST        paths to check: vdso,libc,syscall,impl\n"
	"                          (default vdso,libc, and impl with --impl)\n"
	"  -I, --impl LIB.so       also check the __vdso_* functions LIB.so exports\n"
	"  -t, --threads N         threads for the cross-CPU check (default: one per CPU)\n"
	"  -F, --format FMT        text (default), ktap, json or vdsotest\n"
	"  -h, --help              show this help\n\n"
	"An --impl library is loaded in a child first: one that is no ELF, is\n"
	"for another machine, or whose constructor exits, crashes or hangs\n"
	"(10 s) is named, as bad input. A function that exits, crashes or hangs\n"
	"fails the 'survives' check, which names the library.\n"
	"\n"
	"Exit status: 0 all checks passed, 1 a check failed, 2 usage error or an\n"
	"--impl that cannot be loaded, 4 every check was skipped.\n";

struct opts {
	double seconds;
	unsigned long long max_fails;
	int threads;
	struct vk_call_opts call;
};

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "max-fails", required_argument, NULL, 'f' },
		{ "threads", required_argument, NULL, 't' },
		VK_CALL_LONGOPTS,
		{ 0 }
	};
	unsigned long long n = 0;
	int c, status;

	while ((c = getopt_long(argc, argv, "d:f:t:" VK_CALL_SHORTOPTS, longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (vk_parse_seconds(argv[0], "-d", optarg, &o->seconds))
				return VK_EXIT_USAGE;
			break;
		case 'f':
			if (vk_parse_count(argv[0], "--max-fails", optarg, &o->max_fails))
				return VK_EXIT_USAGE;
			break;
		case 't':
			if (vk_parse_count_in(argv[0], "--threads", optarg, 1, 64, &n))
				return VK_EXIT_USAGE;
			o->threads = n;
			break;
		default:
			status = vk_call_option(argv[0], c, optarg, &o->call, usage,
						vk_format_parse_vdsotest, "text, ktap, json or vdsotest");
			if (status != VK_OPT_GO_ON)
				return status;
		}
	}
	return VK_OPT_GO_ON;
}

static int exit_status(const struct vk_results *rs)
{
	size_t skips = 0;

	if (rs->fails)
		return VK_EXIT_FAIL;
	for (size_t i = 0; i < rs->n; i++)
		skips += rs->r[i]->status == VK_SKIP;
	return skips == rs->n ? VK_EXIT_SKIP : VK_EXIT_OK;
}

static int run(const char *cmd, const struct opts *o, struct vk_target *t, int nt,
	       struct vk_step *step)
{
	struct vk_results rs = { .max_fails = o->max_fails };
	struct vk_verify v = { .rs = &rs, .seconds = o->seconds, .paths = o->call.paths,
			       .threads = o->threads };
	struct vk_report rep = { .command = "verify", .version = vk_version,
				 .seconds = o->seconds, .paths = o->call.paths, .rs = &rs };
	struct vk_callset cs;
	struct vk_image im;
	char err[256];
	int have_vdso = vk_image_open_live(&im) == 0;
	int status;

	if (vk_callset_init(&cs, have_vdso ? &im : NULL, o->call.impl, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", cmd, err);
		return VK_EXIT_USAGE;
	}
	v.cs = &cs;
	for (int i = 0; i < nt; i++) {
		if (step && step->progress)
			step->progress(step->ctx, (double)i / nt);
		vk_verify_run(&v, &t[i]);
	}
	rep.stopped = vk_results_cut(&rs) > 0;
	vk_report_results(vk_step_out(step), o->call.format, &rep, vk_report_text);
	status = exit_status(&rs);
	vk_step_keep(step, &rs);
	vk_callset_close(&cs);
	return status;
}

#define DEFAULT_OPTS { .seconds = 1, .max_fails = 10 }
#define DEFAULT_PATHS (VK_PATH_BIT(VK_PATH_VDSO) | VK_PATH_BIT(VK_PATH_LIBC))

int vk_run_verify(const char *cmd, int format, struct vk_step *step)
{
	struct opts o = DEFAULT_OPTS;
	struct vk_target t[VK_NFUNCS];
	int nt = vk_targets_all(t);

	o.call.format = format;
	o.call.paths = DEFAULT_PATHS;
	return run(cmd, &o, t, nt, step);
}

int cmd_verify(int argc, char **argv)
{
	struct opts o = DEFAULT_OPTS;
	struct vk_target t[VK_NFUNCS];
	int nt, status = parse_opts(argc, argv, &o);

	if (status == VK_OPT_GO_ON)
		status = vk_call_paths(argv[0], &o.call, DEFAULT_PATHS);
	if (status == VK_OPT_GO_ON)
		status = vk_call_targets(argv[0], argc, argv, t, &nt);
	return status == VK_OPT_GO_ON ? run(argv[0], &o, t, nt, NULL) : status;
}
