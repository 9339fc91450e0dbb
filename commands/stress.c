// SPDX-License-Identifier: MIT
/*
 * vdsokit stress: the command line of core/stress, which changes the
 * kernel's time under reader threads; it changes this machine's clock, so
 * it runs in a vm guest or where the user accepts that.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/base/api.h"
#include "core/image/image.h"
#include "core/stress/stress.h"
#include "report/stress.h"
#include "commands/commands.h"

/* A number macro as a string, for --help. */
#define STR_(x) #x
#define STR(x) STR_(x)

static const char head[] =
	"Usage: vdsokit stress [OPTIONS] [API...]\n\n"
	"Read the clocks without pause, one thread per CPU, while the kernel's time\n"
	"is changed underneath them, one fault after another. No clock that must not\n"
	"step back may, alone or across threads, nor jump; a fine clock's read must\n"
	"lie between two syscall reads; every call must return. Reported per fault\n"
	"and path: the calls, the largest step back of every clock, the longest\n"
	"call, crashes and hangs (no call for " STR(VK_STRESS_HANG_SECONDS) " s). "
	"'man vdsokit' has each rule.\n\n"
	"It CHANGES THIS MACHINE'S CLOCK, so it runs only where the kernel's command\n"
	"line has vdsokit.vm=1, as in 'vdsokit vm', or with --i-accept-clock-changes.\n"
	"It needs root. It restores the clocksource, the frequency and tick, the CPUs\n"
	"online, REALTIME, adjtimex's status and TAI offset and the timezone it found,\n"
	"even on SIGINT or SIGTERM, and says whether it could.\n\n"
	"APIs: clock-gettime-CLOCK rows of 'vdsokit list-apis' and getcpu (default:\n"
	"realtime, monotonic, monotonic-raw, boottime, the coarse ones, tai, getcpu).\n\n";

static const char tail[] =
	"\n"
	"Exit status: 0 every fault survived, 1 a check failed, a crash, a hang, or\n"
	"the clock could not be restored, 2 usage error or refused (not in 'vdsokit\n"
	"vm', nothing changed), 4 not root or nothing could run, 128+N stopped by\n"
	"signal N (after restoring).\n";

struct opts {
	double seconds, pause;
	unsigned faults;
	unsigned long long threads;
	int accepted;
	struct vk_call_opts call;
};

static enum vk_opt_result parse_faults(const char *arg, void *faults)
{
	if (vk_stress_faults_parse(arg, faults))
		return vk_opt_error("--faults: '%s' is not a list of clocksource, settime, "
				    "slew, hotplug, timens, pause, leap, timezone, all, none", arg);
	return VK_OPT_OK;
}

static enum vk_opt_result parse_opts(int argc, char **argv, struct opts *o)
{
	const struct vk_option opt[] = {
		VK_OPT('d', "duration", VK_OPT_SECONDS, "SECONDS",
		  "the whole run, shared by the faults (default 60)", &o->seconds),
		VK_OPT(0, "faults", VK_OPT_CALL, "LIST",
		  "clocksource,settime,slew,hotplug,timens,pause,\n"
		  "leap,timezone, all (default), none; baseline 'none'\n"
		  "first. clocksource: each; settime: REALTIME by hours,\n"
		  "to before 2^31 s; slew: +-500 ppm (frequency, tick),\n"
		  "ADJ_SETOFFSET +-10 s; hotplug: last CPU; timens: a\n"
		  "namespace; pause: vm stops the guest; leap: 23:59:60;\n"
		  "timezone: set, read back on each path", &o->faults, .call = parse_faults),
		VK_OPT(0, "pause", VK_OPT_SECONDS, "SECONDS", "how long the pause lasts (default 3)",
		  &o->pause, .lo = 1, .hi = 60),
		VK_OPT(0, "threads", VK_OPT_COUNT, "N", "reader threads (default: one per CPU online)",
		  &o->threads, .lo = 1, .hi = VK_STRESS_MAX_THREADS),
		VK_OPT(0, "i-accept-clock-changes", VK_OPT_FLAG, NULL,
		  "run outside 'vdsokit vm', changing this clock", &o->accepted),
		VK_OPT_PATHS_ROW(&o->call, "vdso,libc,syscall,impl,vsyscall (default vdso,libc,\n"
				 "and impl with --impl)"),
		VK_OPT_IMPL_ROW(&o->call, "also read the __vdso_* functions LIB.so exports\n"
				"(under vm, its dynamic vdsokit: the host's arch)"),
		VK_OPT_FORMAT_ROWS(&o->call.format, VK_DOC_RESULTS, ""),
		VK_OPT_HELP_ROW,
	};
	const struct vk_options opts = VK_OPTIONS(head, tail, opt);

	return vk_options_parse(&opts, argc, argv);
}

static const char *const default_apis[] = {
	"clock-gettime-realtime", "clock-gettime-monotonic", "clock-gettime-monotonic-raw",
	"clock-gettime-boottime", "clock-gettime-realtime-coarse",
	"clock-gettime-monotonic-coarse", "clock-gettime-tai", "getcpu",
};

static int add_api(struct vk_stress *st, const char *name)
{
	const struct vk_api *a = vk_api_find(name);

	if (a && a->func == VK_FN_GETCPU) {
		st->getcpu = 1;
		return 0;
	}
	if (!a || a->func != VK_FN_CLOCK_GETTIME || st->nclocks == VK_STRESS_MAX_CLOCKS)
		return -1;
	for (int i = 0; i < st->nclocks; i++)
		if (st->clocks[i] == a->clock)
			return 0;
	st->clocks[st->nclocks++] = a->clock;
	return 0;
}

static void add_defaults(struct vk_stress *st)
{
	for (size_t i = 0; i < ARRAY_SIZE(default_apis); i++)
		add_api(st, default_apis[i]);
}

static enum vk_opt_result parse_apis(int argc, char **argv,
				     struct vk_stress *st)
{
	for (int i = optind; i < argc; i++) {
		if (add_api(st, argv[i]))
			return vk_opt_error("'%s' is not a clock-gettime-CLOCK API or getcpu "
					    "(see 'vdsokit list-apis')", argv[i]);
	}
	if (optind == argc)
		add_defaults(st);
	return VK_OPT_OK;
}

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = sig;
}

static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static int status_of(const struct vk_results *rs, const struct vk_stress_end *end)
{
	size_t measured = 0;

	if (!end->restored)
		return VK_EXIT_FAIL;
	if (stop)
		return 128 + stop;
	for (size_t i = 0; i < rs->n; i++)
		measured += rs->r[i]->status != VK_SKIP;
	return vk_exit_of(rs->fails, rs->errors, measured > 0);
}

static int run(const struct opts *o, struct vk_stress *st)
{
	struct vk_results rs = { 0 };
	struct vk_sysinfo si;
	struct vk_report rep = { .command = "stress", .version = vk_version, .sys = &si, .seconds = o->seconds,
				 .paths = o->call.paths, .rs = &rs };
	const struct vk_doc doc = { .command = "stress", .kind = VK_DOC_RESULTS, .results = &rep };
	struct vk_stress_end end = { 0 };
	struct vk_callset cs;
	struct vk_image im;
	char err[256];
	int status;

	if (vk_callset_init(&cs, vk_image_open_live(&im) == 0 ? &im : NULL, o->call.impl, err,
			    sizeof(err))) {
		fprintf(stderr, "%s: %s\n", vk_progname, err);
		return VK_EXIT_USAGE;
	}
	st->cs = &cs;
	catch_signals();
	if (vk_stress_run(st, &rs, &end, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", vk_progname, err);
		return VK_EXIT_SKIP;
	}
	vk_results_finish(&rs);
	vk_report_stress_hooks(&rep, &end);
	vk_sysinfo_read(&si);
	vk_run_render(o->call.format, &doc);
	if (!end.restored)
		fprintf(stderr, "%s: THE CLOCK WAS NOT RESTORED: %s\n", vk_progname, end.restore_err);
	status = status_of(&rs, &end);
	vk_run_keep(&rs);
	return status;
}

#define DEFAULT_PATHS (VK_PATH_BIT(VK_PATH_VDSO) | VK_PATH_BIT(VK_PATH_LIBC))

/* Refused outside vdsokit vm, before anything is read or changed; then
 * root, to change the clock. VK_EXIT_OK to go on, or the status. */
static int may_run(int accepted)
{
	const char *refusal = vk_stress_refusal(accepted);

	if (refusal) {
		fprintf(stderr, "%s: refused: %s\n", vk_progname, refusal);
		return VK_EXIT_USAGE;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "%s: needs root to change the clock\n", vk_progname);
		return VK_EXIT_SKIP;
	}
	return VK_EXIT_OK;
}

static int start(const struct opts *o, struct vk_stress *st)
{
	int status = may_run(o->accepted);

	if (status != VK_EXIT_OK)
		return status;
	st->stop = &stop;
	st->paths = o->call.paths;
	st->faults = o->faults;
	st->seconds = o->seconds;
	st->threads = (int)o->threads;
	st->pause = (int)o->pause;
	return run(o, st);
}

int cmd_stress(int argc, char **argv)
{
	struct opts o = { .seconds = 60, .pause = 3, .faults = (1u << VK_NFAULTS) - 1 };
	struct vk_stress st = { 0 };
	enum vk_opt_result r = parse_opts(argc, argv, &o);

	if (r == VK_OPT_OK)
		r = vk_call_paths(&o.call, DEFAULT_PATHS);
	if (r == VK_OPT_OK)
		r = parse_apis(argc, argv, &st);
	return r == VK_OPT_OK ? start(&o, &st) : vk_opt_exit(r);
}
