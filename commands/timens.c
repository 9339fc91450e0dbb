// SPDX-License-Identifier: MIT
/*
 * vdsokit timens: checks the vDSO inside time namespaces, as containers use
 * them, with the user's offsets or core/timens's default sets.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/timens/timens_check.h"
#include "core/timens/timens_rules.h"
#include "report/report.h"
#include "commands/commands.h"

static const char head[] =
	"Usage: vdsokit timens [--monotonic SEC] [--boottime SEC] [-d SEC] [--impl LIB.so]\n"
	"                      [--format FMT] [--verbose]\n\n"
	"Check the vDSO inside time namespaces, as containers use them. For each set of\n"
	"offsets (by default: small, a fraction of a second either way, near and past\n"
	"2^31 s, the most negative the kernel takes, to the ns), a child in a new time\n"
	"namespace checks every clock on the vdso path as verify does; the clocks inside\n"
	"differ from those outside by exactly the offset for MONOTONIC(_COARSE, _RAW)\n"
	"and BOOTTIME(_ALARM), by nothing for the others; the kernel shows the offsets\n"
	"as written; the parent's namespace is unaffected; a process moved out with\n"
	"setns() and back, vdsokit exec()ed inside or by a vfork()ed child of the\n"
	"namespace's maker (which keeps its own time), and a thread of that vdsokit read\n"
	"the right namespace's time; in the first set, the other functions are verified\n"
	"too, and a call that stays in userspace outside stays there. On a 32-bit ABI,\n"
	"each time32 entry is read past 2^31 s: the vDSO's must do what the time32\n"
	"syscall does (wrap tv_sec), libc's fail (EOVERFLOW) or be right.\n\n";

static const char tail[] =
	"\n"
	"LIB.so's entry is called in a child of its own: its crash, exit or hang\n"
	"(5 s) fails the impl path's 'survives' check, which names the library.\n"
	"\n"
	"An offset SEC is seconds with up to 9 decimals, negative too (-0.5). The\n"
	"kernel keeps each clock inside between 0 and 4611686019 s (KTIME_SEC_MAX/2\n"
	"plus one), so it takes -NOW to 4611686019 - NOW s for a clock now at NOW\n"
	"s; an offset out of that is refused with both clocks' bounds (exit 2).\n"
	"\n"
	"Exit status: 0 all checks passed, 1 a check failed (or --impl's call\n"
	"died), 2 usage error, an offset the kernel refuses or an --impl that\n"
	"cannot be loaded (see verify), 3 vdsokit's own error and no failure, 4 no\n"
	"time namespace could be made (no CAP_SYS_ADMIN to make it, no\n"
	"CAP_SYS_TIME to set its offsets, or no CONFIG_TIME_NS).\n";

struct opts {
	int custom;
	int exec_read;
	struct vk_timens_set set;
	double seconds;
	int verbose;
	struct vk_call_opts call;	/* its format and impl: timens has one set of paths */
};

static int run(struct opts *o)
{
	struct vk_timens_set sets[VK_TIMENS_NSETS];
	struct vk_results rs = { 0 };
	struct vk_sysinfo si;
	struct vk_report rep = { .command = "timens", .version = vk_version, .sys = &si,
				 .seconds = o->seconds, .rs = &rs,
				 .paths = VK_PATH_BIT(VK_PATH_VDSO) | VK_PATH_BIT(VK_PATH_SYSCALL) };
	const struct vk_doc doc = { .command = "timens", .kind = VK_DOC_RESULTS, .results = &rep };
	const char *unsupported = vk_timens_unsupported();
	/* The exec rule runs vdsokit again, as this option. */
	static char *const exec_argv[] = { "vdsokit", "timens", "--exec-read", NULL };
	struct vk_timens_check c = { .seconds = o->seconds, .exec_argv = exec_argv };
	struct vk_callset cs;
	struct vk_image im;
	char err[256];
	int n, have_vdso = vk_image_open_live(&im) == 0, status = VK_EXIT_OK;

	if (o->call.impl)
		rep.paths |= VK_PATH_BIT(VK_PATH_IMPL);
	if (vk_callset_init(&cs, have_vdso ? &im : NULL, o->call.impl, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", vk_progname, err);
		return VK_EXIT_USAGE;
	}
	vk_timens_check_init(&c, &cs);
	n = o->custom ? 1 : vk_timens_default_sets(sets, VK_TIMENS_NSETS);
	if (o->custom)
		sets[0] = o->set;
	/* Without namespaces, or the right to make one, the report is one SKIP. */
	for (int i = 0; i < n && !unsupported; i++) {
		int e = vk_timens_check_set(&c, &sets[i], &rs, err, sizeof(err));

		if (e == VK_TIMENS_NOT_RUN) {
			vk_result_error(&rs, vk_results_add(&rs, "timens", VK_PATH_SYSCALL, "all"),
					"not tested: set %s: %s", sets[i].name, err);
			break;
		}
		if (e && !o->custom && i == 0) {
			unsupported = err;
			break;
		}
		if (e) {
			fprintf(stderr, "%s: set %s: %s\n", vk_progname, sets[i].name, err);
			status = o->custom && e == 1 ? VK_EXIT_SKIP : VK_EXIT_USAGE;
			break;
		}
	}
	if (unsupported) {
		fprintf(stderr, "%s: SKIP: %s\n", vk_progname, unsupported);
		vk_result_skip(vk_results_add(&rs, "timens", VK_PATH_SYSCALL, "all"), "%s", unsupported);
		status = VK_EXIT_SKIP;
	}
	vk_results_finish(&rs);
	rep.verbose = o->verbose;
	rep.order = vk_results_bounds(&rs, VK_BOUND_ORDER);
	rep.skew = vk_results_bounds(&rs, VK_BOUND_SKEW);
	vk_sysinfo_read(&si);
	vk_run_render(o->call.format, &doc);
	if (status == VK_EXIT_OK)
		status = vk_exit_of(rs.fails, rs.errors, 1);
	vk_run_keep(&rs);
	return status;
}

static enum vk_opt_result parse_offset(const char *opt, const char *arg,
					int64_t *ns)
{
	int e = vk_timens_parse_offset(arg, ns);

	if (e == -1)
		return vk_opt_error("%s: '%s' is not seconds (a decimal, negative too, of at most 9 decimals: the kernel takes ns)",
				    opt, arg);
	if (e)
		return vk_opt_error("%s: '%s' is beyond the +-%lld s any offset of the kernel's is within",
				    opt, arg, VK_TIMENS_SEC_MAX);
	return VK_OPT_OK;
}

static enum vk_opt_result parse_mono(const char *arg, void *ns)
{
	return parse_offset("--monotonic", arg, ns);
}

static enum vk_opt_result parse_boot(const char *arg, void *ns)
{
	return parse_offset("--boottime", arg, ns);
}

/* The kernel's bounds, which move with the clocks: said as they are now. */
static int out_of_bounds(const struct vk_timens_set *s)
{
	struct timespec m, b;
	int64_t mono, boot, lo, hi;
	char bounds[256];
	int out;

	clock_gettime(CLOCK_MONOTONIC, &m);
	clock_gettime(CLOCK_BOOTTIME, &b);
	mono = m.tv_sec * 1000000000LL + m.tv_nsec;
	boot = b.tv_sec * 1000000000LL + b.tv_nsec;
	vk_timens_offset_bounds(mono, &lo, &hi);
	out = s->mono_ns < lo || s->mono_ns > hi;
	vk_timens_offset_bounds(boot, &lo, &hi);
	out |= s->boot_ns < lo || s->boot_ns > hi;
	if (!out)
		return 0;
	vk_timens_bounds_said(bounds, sizeof(bounds), mono, boot);
	fprintf(stderr, "%s: the kernel refuses these offsets: %s\n", vk_progname, bounds);
	return 1;
}

int cmd_timens(int argc, char **argv)
{
	struct opts o = { .seconds = 0.2, .call = { .format = VK_FMT_TEXT } };
	const struct vk_option opt[] = {
		VK_OPT(0, "monotonic", VK_OPT_CALL, "SEC",
		  "one set with this MONOTONIC offset (and --boottime's):\n"
		  "seconds to the ns, negative too", &o.set.mono_ns, .call = parse_mono,
		  .given = &o.custom),
		VK_OPT(0, "boottime", VK_OPT_CALL, "SEC",
		  "one set with this BOOTTIME offset (and --monotonic's)", &o.set.boot_ns,
		  .call = parse_boot, .given = &o.custom),
		VK_OPT('d', "duration", VK_OPT_SECONDS, "SEC",
		  "verify's budget per API inside each namespace (default 0.2)", &o.seconds),
		VK_OPT_FORMAT_ROWS(&o.call.format, VK_DOC_RESULTS, ""),
		VK_OPT_IMPL_ROW(&o.call, "also read LIB.so's time32 clock_gettime past 2^31 s"),
		VK_OPT_VERBOSE_ROW(&o.verbose),
		/* The exec rule's process, exec()ed inside the namespace. */
		VK_OPT(0, "exec-read", VK_OPT_FLAG, NULL, NULL, &o.exec_read),
		VK_OPT_HELP_ROW,
	};
	const struct vk_options opts = VK_OPTIONS(head, tail, opt);
	enum vk_opt_result r;

	snprintf(o.set.name, sizeof(o.set.name), "custom");
	r = vk_options_parse(&opts, argc, argv);
	if (r == VK_OPT_OK)
		r = vk_verbose_text(o.verbose, o.call.format);
	if (r != VK_OPT_OK)
		return vk_opt_exit(r);
	if (optind < argc)
		return vk_usage_error("unexpected argument '%s'", argv[optind]);
	if (o.exec_read) {
		vk_timens_exec_read(STDOUT_FILENO);
		return VK_EXIT_OK;
	}
	if (o.custom && out_of_bounds(&o.set))
		return VK_EXIT_USAGE;
	return run(&o);
}
