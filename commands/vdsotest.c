// SPDX-License-Identifier: MIT
/*
 * vdsotest's command line, for the test farms built on it. Installed
 * under vdsotest's names (links to vdsokit, which main() dispatches on
 * by argv[0]), vdsokit takes vdsotest's place:
 *   vdsotest [OPTIONS] API TEST-TYPE     verify, bench or abi of one API
 *   vdsotest list-apis | list-test-types one word a line
 *   vdsotest-all [OPTIONS]               every API and test type
 *   vdsotest-bench [OPTIONS]             every API's bench
 * Options go before or after the arguments, as argp lets vdsotest's:
 * -d SEC (also "-d 10" as one word, which Linaro's script passes), -f NUM,
 * -g, -v, their long forms, and vdsokit's -I LIB.so. Each run prints
 * vdsotest's lines (see report/vdsotest.c). Unlike vdsotest, -d 0 and
 * junk are refused instead of hanging or being read as 0, and
 * vdsotest-all's status is the worst of its runs, not its last run's.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base/api.h"
#include "core/base/children.h"
#include "commands/commands.h"

static const char usage[] =
	"Usage: vdsotest [OPTIONS] API TEST-TYPE\n"
	"   or: vdsotest list-apis | list-test-types\n"
	"   or: vdsotest-all [OPTIONS]     every API and test type\n"
	"   or: vdsotest-bench [OPTIONS]   every API's bench\n\n"
	"vdsotest's command line, run by vdsokit: TEST-TYPE is verify, bench or\n"
	"abi, API a name from list-apis. Each result is a line: a description\n"
	"padded to 70 columns and its outcome, or a bench figure per path.\n\n"
	"  -d, --duration SEC   verify's and bench's budget per API and path\n"
	"  -f, --maxfails NUM   stop verify after NUM failed checks (default 10)\n"
	"  -g, --debug          accepted; every result is always printed\n"
	"  -v, --verbose        accepted; every result is always printed\n"
	"  -I, --impl LIB.so    also test the __vdso_* functions LIB.so exports\n"
	"  -h, --help           show this help\n"
	"  -V, --version        show the version\n\n"
	"Exit status: 0 success, 1 a check failed, 2 usage error, 4 nothing could\n"
	"run; vdsotest-all and vdsotest-bench: the worst of their runs, 4 only if\n"
	"no run had anything to run.\n";

static const char *const types[] = { "verify", "bench", "abi" };

#define NTYPES (sizeof(types) / sizeof(types[0]))

struct vt {
	const char *cmd;		/* the name errors carry */
	const char *arg[3];		/* positionals: API and TEST-TYPE */
	int nargs;
	const char *seconds;		/* -d, or NULL */
	const char *max_fails;		/* -f, or NULL */
	const char *impl;		/* -I, or NULL */
	int help, version;
};

/* A long option, with its value after '=' or in the next word. */
static const struct {
	const char *name;
	char key;
	int has_arg;
} longs[] = {
	{ "duration", 'd', 1 }, { "maxfails", 'f', 1 }, { "impl", 'I', 1 },
	{ "debug", 'g', 0 }, { "verbose", 'v', 0 }, { "help", 'h', 0 },
	{ "usage", 'h', 0 }, { "version", 'V', 0 },
};

static int set(struct vt *o, char key, const char *val)
{
	switch (key) {
	case 'd': o->seconds = val; return 0;
	case 'f': o->max_fails = val; return 0;
	case 'I': o->impl = val; return 0;
	case 'h': case '?': o->help = 1; return 0;
	case 'V': o->version = 1; return 0;
	case 'g': case 'v': return 0;
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

	for (size_t i = 0; i < sizeof(longs) / sizeof(longs[0]); i++) {
		if (strlen(longs[i].name) != n || strncmp(a + 2, longs[i].name, n))
			continue;
		if (!longs[i].has_arg && a[2 + n] == '=') {
			snprintf(bad, len, "option '--%s' takes no value", longs[i].name);
			return -1;
		}
		if (longs[i].has_arg && !val) {
			snprintf(bad, len, "option '%s' needs a value", a);
			return -1;
		}
		set(o, longs[i].key, val);
		return longs[i].has_arg && val == next ? 2 : 1;
	}
	snprintf(bad, len, "unknown option '%s'", a);
	return -1;
}

/* "-gv", "-d10", "-d 10" (one word), "-d" "10"; the words used, or -1. */
static int short_options(struct vt *o, const char *a, const char *next, char *bad, size_t len)
{
	for (const char *p = a + 1; *p; p++) {
		if (!takes_value(*p)) {
			if (set(o, *p, NULL)) {
				snprintf(bad, len, "unknown option '-%c'", *p);
				return -1;
			}
			continue;
		}
		if (!p[1] && !next) {
			snprintf(bad, len, "option '-%c' needs a value", *p);
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

/* Whether the positionals are vdsotest's: a listing, or API TEST-TYPE. */
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
		snprintf(bad, len, "unknown API '%s' (see '%s list-apis')", o->arg[0], o->cmd);
	} else if (find_type(o->arg[1]) < 0) {
		snprintf(bad, len, "unknown test type '%s' (verify, bench or abi)", o->arg[1]);
	} else {
		return 0;
	}
	return -1;
}

static int list(const char *what)
{
	if (!strcmp(what, "list-test-types")) {
		for (size_t i = 0; i < NTYPES; i++)
			puts(types[i]);
		return VK_EXIT_OK;
	}
	for_each_api(a) {
		if (find_api(a->name))
			puts(a->name);
	}
	return VK_EXIT_OK;
}

/* One run: vdsokit's command of that type on the API, in vdsotest's lines. */
static int run_one(const struct vt *o, const char *api, const char *type)
{
	char *args[16], name[32];
	int n = 0, t = find_type(type);

	snprintf(name, sizeof(name), "%s %s", o->cmd, type);
	args[n++] = name;
	args[n++] = "--format";
	args[n++] = "vdsotest";
	if (o->max_fails && t == 0) {
		args[n++] = "--max-fails";
		args[n++] = (char *)o->max_fails;
	}
	if (o->seconds && t != 2) {
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
	if (t == 2)
		return cmd_abi(n, args);
	return t == 1 ? cmd_bench(n, args) : cmd_verify(n, args);
}

static int worst(int a, int b)
{
	static const int rank[] = { [VK_EXIT_OK] = 0, [VK_EXIT_SKIP] = 1,
				    [VK_EXIT_FAIL] = 2, [VK_EXIT_USAGE] = 3 };

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
		fprintf(stderr, "%s: %s %s: could not run it\n", o->cmd, api, type);
		return VK_EXIT_USAGE;
	}
	status = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
	if (status == VK_EXIT_OK || status == VK_EXIT_FAIL || status == VK_EXIT_USAGE ||
	    status == VK_EXIT_SKIP)
		return status;
	fprintf(stderr, "%s: %s %s: died (wait status %#x)\n", o->cmd, api, type, ws);
	return VK_EXIT_FAIL;
}

static const char *base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* Parse, and answer --help and --version (VK_OPT_HELP). */
static enum vk_opt_result start(int argc, char **argv, struct vt *o)
{
	unsigned long long n;
	char bad[160];
	double d;

	o->cmd = base(argv[0]);
	if (parse(argc, argv, o, bad, sizeof(bad)))
		return vk_opt_error(o->cmd, "%s", bad);
	if (o->help) {
		fputs(usage, stdout);
		return VK_OPT_HELP;
	}
	if (o->version) {
		printf("%s (vdsokit) %s\n", o->cmd, vk_version);
		return VK_OPT_HELP;
	}
	/* Refused once here, rather than by every run of vdsotest-all. */
	if ((o->seconds && vk_parse_seconds(o->cmd, "-d", o->seconds, &d)) ||
	    (o->max_fails && vk_parse_count(o->cmd, "-f", o->max_fails, &n)))
		return VK_OPT_BAD;
	return VK_OPT_OK;
}

int vk_vdsotest(int argc, char **argv)
{
	struct vt o = { 0 };
	char bad[160];
	enum vk_opt_result r = start(argc, argv, &o);

	if (r != VK_OPT_OK)
		return vk_opt_exit(r);
	if (shape(&o, bad, sizeof(bad)))
		return vk_usage_error(o.cmd, "%s", bad);
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
		return vk_opt_exit(r);
	if (o.nargs)
		return vk_usage_error(o.cmd, "unexpected argument '%s'", o.arg[0]);
	status = VK_EXIT_OK;
	for_each_api(a) {
		for (size_t t = first; find_api(a->name) && t <= last; t++) {
			int s = run_child(&o, a->name, types[t]);

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
	struct vt o = { .cmd = "vdsokit" };
	char bad[160];

	if (parse(argc, argv, &o, bad, sizeof(bad)) || o.help || o.version ||
	    shape(&o, bad, sizeof(bad)))
		return 0;
	*status = o.nargs == 1 ? list(o.arg[0]) : run_one(&o, o.arg[0], o.arg[1]);
	return 1;
}
