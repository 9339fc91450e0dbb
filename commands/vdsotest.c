// SPDX-License-Identifier: MIT
/*
 * vdsotest's command line, for the test farms built on it. Installed
 * under vdsotest's names (links to vdsokit, which main() dispatches on
 * by argv[0]), vdsokit takes vdsotest's place:
 *   vdsotest [OPTIONS] API TEST-TYPE     verify, bench or abi of one API
 *   vdsotest list-apis | list-test-types one tab-indented word a line
 *   vdsotest-all [OPTIONS]               every API and test type
 *   vdsotest-bench [OPTIONS]             every API's bench
 * Options go before or after the arguments, as argp lets vdsotest's:
 * -d SEC (also "-d 10" as one word, which Linaro's script passes), -f NUM,
 * -g, -v, their long forms, and vdsokit's -I LIB.so. Each run prints
 * vdsotest's lines (see report/vdsotest.c), the result lines only with
 * -v or -g, and with -g vdsotest's debug lines for the events vdsokit
 * has, as vdsotest's. A usage error exits 64 and an unknown API or
 * test type 1, as vdsotest's do. Unlike vdsotest, -d 0 and junk are
 * refused instead of hanging or being read as 0, and vdsotest-all's
 * status is the worst of its runs, not its last run's. Usage errors are
 * worded as argp words vdsotest's.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/base/api.h"
#include "core/base/children.h"
#include "commands/commands.h"
#include "report/report.h"

/* vdsotest's statuses: argp's for a usage error, error(1)'s for a name
 * it does not know. */
#define VT_EXIT_USAGE 64
#define VT_EXIT_UNKNOWN 1

static const char usage[] =
	"Usage: vdsotest [OPTIONS] API TEST-TYPE\n"
	"   or: vdsotest list-apis | list-test-types\n"
	"   or: vdsotest-all [OPTIONS]     every API and test type\n"
	"   or: vdsotest-bench [OPTIONS]   every API's bench\n\n"
	"vdsotest's command line, run by vdsokit: TEST-TYPE is verify, bench or\n"
	"abi, API a name from list-apis or 'vdsokit list-apis'. Each result is a\n"
	"line: a description padded to 70 columns and its outcome, or a bench\n"
	"figure per path.\n\n"
	"  -d, --duration SEC   a test's duration (default 1): verify's whole run,\n"
	"                       bench's per path, as vdsotest's\n"
	"  -f, --maxfails NUM   stop verify after NUM failed checks (default 10)\n"
	"  -g, --debug          as -v, and vdsotest's debug lines: verify's time\n"
	"                       per path, getcpu verify's moves between CPUs\n"
	"  -v, --verbose        print each result line, not only failures, and\n"
	"                       bench's calls per path\n"
	"  -I, --impl LIB.so    also test the __vdso_* functions LIB.so exports\n"
	"  -h, --help           show this help\n"
	"  -V, --version        show the version\n\n"
	"Exit status: 0 success, 1 a check failed or an unknown API or test type,\n"
	"2 bad input to a run, 3 vdsokit's own error (no fork, no memory, a syscall\n"
	"it needs refused) and no check failed, 4 nothing could run, 64 usage error;\n"
	"vdsotest-all and vdsotest-bench: the worst of their runs (0, 4, 3, 1, 2),\n"
	"4 only if no run had anything to run.\n";

/* argp's --usage, and the head of its answer to a wrong argument count. */
static const char short_usage[] =
	"Usage: vdsotest [-gv?V] [-d SEC] [-f NUM] [-I LIB.so] [--duration=SEC]\n"
	"            [--maxfails=NUM] [--impl=LIB.so] [--debug] [--verbose] [--help]\n"
	"            [--usage] [--version] API TEST-TYPE\n";
static const char count_usage[] = "Usage: vdsotest [OPTION...] API TEST-TYPE\n";
static const char listings[] =
	"  or:  vdsotest [OPTION...] list-apis\n"
	"  or:  vdsotest [OPTION...] list-test-types\n";

static const char *const types[] = { "verify", "bench", "abi" };

#define NTYPES ARRAY_SIZE(types)

/* vdsotest's APIs: what its list-apis prints, in that order. */
static const char *const vdsotest_apis[] = {
	"clock-gettime-monotonic", "clock-getres-monotonic",
	"clock-gettime-monotonic-coarse", "clock-getres-monotonic-coarse",
	"clock-gettime-monotonic-raw", "clock-getres-monotonic-raw",
	"clock-gettime-tai", "clock-getres-tai",
	"clock-gettime-boottime", "clock-getres-boottime",
	"clock-gettime-realtime", "clock-getres-realtime",
	"clock-gettime-realtime-coarse", "clock-getres-realtime-coarse",
	"getcpu", "gettimeofday",
};

#define NVDSOTEST_APIS ARRAY_SIZE(vdsotest_apis)

struct vt {
	const char *argv0;		/* as typed: vdsotest's errors carry it */
	const char *arg[3];		/* positionals: API and TEST-TYPE */
	int nargs;
	const char *seconds;		/* -d, or NULL */
	double whole;			/* -d's seconds, vdsotest's 1; 0: vdsokit's -d */
	const char *max_fails;		/* -f, or NULL */
	const char *impl;		/* -I, or NULL */
	int help, usage, version, verbose, debug;
};

/* --usage has no letter. */
#define USAGE_KEY '\1'

/* A long option, with its value after '=' or in the next word. */
static const struct {
	const char *name;
	char key;
	int has_arg;
} longs[] = {
	{ "duration", 'd', 1 }, { "maxfails", 'f', 1 }, { "impl", 'I', 1 },
	{ "debug", 'g', 0 }, { "verbose", 'v', 0 }, { "help", 'h', 0 },
	{ "usage", USAGE_KEY, 0 }, { "version", 'V', 0 },
};

static int set(struct vt *o, char key, const char *val)
{
	switch (key) {
	case 'd': o->seconds = val; return 0;
	case 'f': o->max_fails = val; return 0;
	case 'I': o->impl = val; return 0;
	case 'h': case '?': o->help = 1; return 0;
	case USAGE_KEY: o->usage = 1; return 0;
	case 'V': o->version = 1; return 0;
	case 'g': o->debug = 1; /* as vdsotest's, -g implies -v */
		  o->verbose = 1; return 0;
	case 'v': o->verbose = 1; return 0;
	default: return -1;
	}
}

static int takes_value(char key)
{
	return key == 'd' || key == 'f' || key == 'I';
}

/* "--name", "--name=value" or "--name value"; the words used, or -1. */
static int long_option(struct vt *o, const char *a, const char *next, char *bad, size_t len)
{
	size_t n = strcspn(a + 2, "=");
	const char *val = a[2 + n] == '=' ? a + 3 + n : next;

	for (size_t i = 0; i < ARRAY_SIZE(longs); i++) {
		if (strlen(longs[i].name) != n || strncmp(a + 2, longs[i].name, n))
			continue;
		if (!longs[i].has_arg && a[2 + n] == '=') {
			snprintf(bad, len, "option '--%s' doesn't allow an argument", longs[i].name);
			return -1;
		}
		if (longs[i].has_arg && !val) {
			snprintf(bad, len, "option '--%s' requires an argument", longs[i].name);
			return -1;
		}
		set(o, longs[i].key, val);
		return longs[i].has_arg && val == next ? 2 : 1;
	}
	snprintf(bad, len, "unrecognized option '%s'", a);
	return -1;
}

/* "-gv", "-d10", "-d 10" (one word), "-d" "10"; the words used, or -1. */
static int short_options(struct vt *o, const char *a, const char *next, char *bad, size_t len)
{
	for (const char *p = a + 1; *p; p++) {
		if (!takes_value(*p)) {
			if (set(o, *p, NULL)) {
				snprintf(bad, len, "invalid option -- '%c'", *p);
				return -1;
			}
			continue;
		}
		if (!p[1] && !next) {
			snprintf(bad, len, "option requires an argument -- '%c'", *p);
			return -1;
		}
		/* The one word "-d 10": its value starts after the spaces. */
		set(o, *p, p[1] ? p + 1 + strspn(p + 1, " ") : next);
		return p[1] ? 1 : 2;
	}
	return 1;
}

/* Options anywhere, "--" ending them; 0, or -1 with why in bad. */
static int parse(int argc, char **argv, struct vt *o, char *bad, size_t len)
{
	int opts = 1;

	bad[0] = '\0';
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
		int used = 1;

		if (opts && !strcmp(a, "--"))
			opts = 0;
		else if (opts && !strncmp(a, "--", 2))
			used = long_option(o, a, next, bad, len);
		else if (opts && a[0] == '-' && a[1])
			used = short_options(o, a, next, bad, len);
		else if (o->nargs < 3)
			o->arg[o->nargs++] = a;
		if (used < 0)
			return -1;
		i += used - 1;
	}
	return 0;
}

static const struct vk_api *find_api(const char *name)
{
	const struct vk_api *a = vk_api_find(name);

	return a && vk_api_applies(a, sizeof(void *) == 8) ? a : NULL;
}

static int find_type(const char *name)
{
	for (size_t i = 0; i < NTYPES; i++) {
		if (!strcmp(name, types[i]))
			return i;
	}
	return -1;
}

/* Whether the positionals are vdsotest's: a listing, or API TEST-TYPE;
 * -1 with why in bad, or 1 for a name vdsotest does not know either. */
static int shape(const struct vt *o, char *bad, size_t len)
{
	const char *list = o->nargs ? o->arg[0] : "";

	if (!strcmp(list, "list-apis") || !strcmp(list, "list-test-types")) {
		if (o->nargs == 1)
			return 0;
		snprintf(bad, len, "%s takes no other argument", list);
	} else if (o->nargs != 2) {
		snprintf(bad, len, "%s", o->nargs < 2 ? "API and TEST-TYPE are needed" :
			 "too many arguments");
	} else if (!find_api(o->arg[0])) {
		snprintf(bad, len, "%s: Unknown test suite '%s' specified", o->argv0, o->arg[0]);
		return 1;
	} else if (find_type(o->arg[1]) < 0) {
		snprintf(bad, len, "%s: Unknown test function '%s' specified", o->argv0,
			 o->arg[1]);
		return 1;
	} else {
		return 0;
	}
	return -1;
}

static int is_vdsotests(const char *name)
{
	for (size_t i = 0; i < NVDSOTEST_APIS; i++) {
		if (!strcmp(name, vdsotest_apis[i]))
			return 1;
	}
	return 0;
}

/* The APIs vdsotest-all runs: vdsotest's in its order, then the rest of
 * the table's that apply here; n from 0 until NULL. */
static const char *nth_api(size_t n)
{
	if (n < NVDSOTEST_APIS)
		return vdsotest_apis[n];
	n -= NVDSOTEST_APIS;
	for_each_api(a) {
		if (find_api(a->name) && !is_vdsotests(a->name) && !n--)
			return a->name;
	}
	return NULL;
}

static int list(const char *what)
{
	if (!strcmp(what, "list-test-types")) {
		for (size_t i = 0; i < NTYPES; i++)
			printf("\t%s\n", types[i]);
		return VK_EXIT_OK;
	}
	for (size_t i = 0; i < NVDSOTEST_APIS; i++)
		printf("\t%s\n", vdsotest_apis[i]);
	return VK_EXIT_OK;
}

/* vdsotest's -d is the whole test's time, verify's each path's (vdso
 * and libc, and impl with -I): each path's share, in whole microseconds. */
static long long verify_share_us(const struct vt *o)
{
	long long us = (long long)(o->whole / (o->impl ? 3 : 2) * 1e6 + 0.5);

	return us > 0 ? us : 1;
}

/* One run: vdsokit's command of that type on the API, in vdsotest's lines. */
static int run_one(const struct vt *o, const char *api, const char *type)
{
	char *args[16], name[32], share[32];
	const char *self = vk_progname;
	int n = 0, t = find_type(type), status;

	snprintf(name, sizeof(name), "%s %s", self, type);
	args[n++] = name;
	args[n++] = "--format";
	args[n++] = "vdsotest";
	if (o->max_fails && t == 0) {
		args[n++] = "--max-fails";
		args[n++] = (char *)o->max_fails;
	}
	if (t == 0 && o->whole) {
		long long us = verify_share_us(o);

		snprintf(share, sizeof(share), "%lld.%06lld", us / 1000000, us % 1000000);
		args[n++] = "--duration";
		args[n++] = share;
		/* vdsotest's words for the time it gives each part of a test. */
		vk_report_vdsotest_debug_line(__func__, __LINE__, "subtimer_ns = %lld\n", us * 1000);
	} else if (o->seconds && t != 2) {
		args[n++] = "--duration";
		args[n++] = (char *)o->seconds;
	}
	if (o->impl) {
		args[n++] = "--impl";
		args[n++] = (char *)o->impl;
	}
	args[n++] = (char *)api;
	args[n] = NULL;
	/* Let getopt_long() start afresh on the new argument vector. */
	optind = 0;
	vk_progname = name;
	status = t == 2 ? cmd_abi(n, args) : t == 1 ? cmd_bench(n, args) : cmd_verify(n, args);
	vk_progname = self;
	return status;
}

static int worst(int a, int b)
{
	static const int rank[] = { [VK_EXIT_OK] = 0, [VK_EXIT_SKIP] = 1, [VK_EXIT_ERROR] = 2,
				    [VK_EXIT_FAIL] = 3, [VK_EXIT_USAGE] = 4 };

	return rank[b] > rank[a] ? b : a;
}

/* A run in a child, as vdsotest-all runs vdsotest: bench pins the CPU
 * and verify forks threads, and neither may touch the next run. */
static int run_child(const struct vt *o, const char *api, const char *type)
{
	int ws, status;
	pid_t pid;

	fflush(stdout);
	pid = vk_fork();
	if (pid == 0) {
		status = run_one(o, api, type);
		exit(fflush(stdout) ? VK_EXIT_USAGE : status);
	}
	if (pid < 0 || vk_waitpid(pid, &ws, 0) != pid) {
		fprintf(stderr, "%s: %s %s: vdsokit's own error: could not %s it: %s\n", vk_progname, api,
			type, pid < 0 ? "fork to run" : "wait for", strerror(errno));
		return VK_EXIT_ERROR;
	}
	status = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
	if (status == VK_EXIT_OK || status == VK_EXIT_FAIL || status == VK_EXIT_USAGE ||
	    status == VK_EXIT_ERROR || status == VK_EXIT_SKIP)
		return status;
	fprintf(stderr, "%s: %s %s: died (wait status %#x)\n", vk_progname, api, type, ws);
	return VK_EXIT_FAIL;
}

static const char *base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static void argp_try(const char *name)
{
	fprintf(stderr, "Try `%s --help' or `%s --usage' for more information.\n", name, name);
}

/* Parse, and answer --help, --usage and --version (VK_OPT_HELP). */
static enum vk_opt_result start(int argc, char **argv, struct vt *o)
{
	unsigned long long n;
	char bad[160];

	o->argv0 = argv[0];
	vk_progname = base(argv[0]);
	if (parse(argc, argv, o, bad, sizeof(bad))) {
		fprintf(stderr, "%s: %s\n", vk_progname, bad);
		argp_try(vk_progname);
		return VK_OPT_BAD;
	}
	if (o->usage) {
		fputs(short_usage, stdout);
		fputs(listings, stdout);
		return VK_OPT_HELP;
	}
	if (o->help) {
		fputs(usage, stdout);
		return VK_OPT_HELP;
	}
	if (o->version) {
		printf("%s (vdsokit) %s\n", vk_progname, vk_version);
		return VK_OPT_HELP;
	}
	/* Refused once here, rather than by every run of vdsotest-all. */
	o->whole = 1;
	if ((o->seconds && vk_parse_seconds("-d", o->seconds, &o->whole)) ||
	    (o->max_fails && vk_parse_count("-f", o->max_fails, &n)))
		return VK_OPT_BAD;
	vk_report_vdsotest_verbose(o->verbose);
	vk_report_vdsotest_debug(o->debug);
	return VK_OPT_OK;
}

/* vdsotest's status for what start() decided: argp's 64 for a usage error. */
static int vt_exit(enum vk_opt_result r)
{
	return r == VK_OPT_HELP ? VK_EXIT_OK : VT_EXIT_USAGE;
}

int vk_vdsotest(int argc, char **argv)
{
	struct vt o = { 0 };
	char bad[160];
	enum vk_opt_result r = start(argc, argv, &o);
	int status;

	if (r != VK_OPT_OK)
		return vt_exit(r);
	status = shape(&o, bad, sizeof(bad));
	if (status > 0) {
		fprintf(stderr, "%s\n", bad);
		return VT_EXIT_UNKNOWN;
	}
	if (status < 0) {
		/* argp's answer to a wrong count: the usage, not why. */
		fputs(count_usage, stderr);
		fputs(listings, stderr);
		argp_try(vk_progname);
		return VT_EXIT_USAGE;
	}
	if (o.nargs == 1)
		return list(o.arg[0]);
	return run_one(&o, o.arg[0], o.arg[1]);
}

/*
 * vdsotest-all and vdsotest-bench: each API, with each test type of
 * types[first..last]. The status is the worst of the runs', but a run
 * with nothing to run (an API this kernel's vDSO lacks, on a path that
 * cannot stand in for it) counts only when every run had nothing.
 */
static int run_all(int argc, char **argv, size_t first, size_t last)
{
	struct vt o = { 0 };
	enum vk_opt_result r = start(argc, argv, &o);
	int status, runs = 0, skips = 0;

	if (r != VK_OPT_OK)
		return vt_exit(r);
	if (o.nargs) {
		vk_usage_error("unexpected argument '%s'", o.arg[0]);
		return VT_EXIT_USAGE;
	}
	status = VK_EXIT_OK;
	for (size_t i = 0; nth_api(i); i++) {
		for (size_t t = first; t <= last; t++) {
			int s = run_child(&o, nth_api(i), types[t]);

			runs++;
			skips += s == VK_EXIT_SKIP;
			if (s != VK_EXIT_SKIP)
				status = worst(status, s);
		}
	}
	return runs && skips == runs ? VK_EXIT_SKIP : status;
}

int vk_vdsotest_all(int argc, char **argv)
{
	return run_all(argc, argv, 0, NTYPES - 1);
}

int vk_vdsotest_bench(int argc, char **argv)
{
	return run_all(argc, argv, 1, 1);
}

int vk_vdsotest_compat(int argc, char **argv, int *status)
{
	struct vt o = { .argv0 = "vdsokit" };
	char bad[160];

	if (parse(argc, argv, &o, bad, sizeof(bad)) || o.help || o.version ||
	    shape(&o, bad, sizeof(bad)))
		return 0;
	*status = o.nargs == 1 ? list(o.arg[0]) : run_one(&o, o.arg[0], o.arg[1]);
	return 1;
}
