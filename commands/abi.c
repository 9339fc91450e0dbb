// SPDX-License-Identifier: MIT
/*
 * vdsokit abi: for libc and runtime authors, where the vDSO's answer to a
 * hostile argument (bad pointer, clock id, flags) differs from the
 * syscall's. Parses the command line, runs core/abi's cases, prints them.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/abi/abi.h"
#include "core/call/targets.h"
#include "report/report.h"
#include "commands/commands.h"
#include "cli/repro.h"
#include "core/confirm/confirm.h"

static const char head[] =
	"Usage: vdsokit abi [OPTIONS] [API...]\n\n"
	"Call each API on each path with hostile arguments: pointers NULL, to an\n"
	"unmapped, PROT_NONE or read-only page, into the vDSO and vvar pages, across\n"
	"a page boundary, misaligned, into the kernel's half, UINTPTR_MAX; clock ids\n"
	"-16..40, INT_MIN, INT_MAX, a dead pid's and closed or non-clock fds'\n"
	"clocks; getcpu's and gettimeofday's every pointer combination; getrandom's\n"
	"bad buffers, lengths, flags and states. Each case runs in its own child\n"
	"under a watchdog; its outcome (return value, errno, signal, and which bytes\n"
	"it wrote, by canaries) is compared with the raw syscall's and classified:\n"
	"identical, allowed by the vDSO's documented ABI (the rule is named), or\n"
	"unexpected, which is a failure. APIs as for verify.\n\n";

static const char tail[] =
	"\n"
	"Exit status: 0 no unexpected outcome, 1 an unexpected one, 2 usage error,\n"
	"an --impl that cannot be loaded (see verify) or an --output file not\n"
	"written, 3 none unexpected but vdsokit's own error kept cases from running\n"
	"(no fork, no memory), 4 nothing could run.\n";

#define MAX_CASES 512

struct opts {
	double timeout;
	struct vk_call_opts call;
	const char *outdir;	/* --output, or NULL */
};

static enum vk_opt_result parse_opts(int argc, char **argv, struct opts *o)
{
	const struct vk_option opt[] = {
		VK_OPT_PATHS_ROW(&o->call, "vdso,libc,impl,vsyscall (default vdso,libc, and impl\n"
				 "with --impl)"),
		VK_OPT_IMPL_ROW(&o->call, "also test the __vdso_* functions LIB.so exports"),
		VK_OPT('t', "timeout", VK_OPT_SECONDS, "SECS",
		  "per case (default 1); after 3 hangs an API's other\n"
		  "cases on that path are skipped", &o->timeout),
		VK_OPT_FORMAT_ROWS(&o->call.format, VK_DOC_RESULTS, ""),
		VK_OPT('o', "output", VK_OPT_CALL, "DIR",
		  "write DIR/repro/NAME.txt (a report to send) and\n"
		  "NAME.c (a standalone reproducer) per finding\n"
		  "(man vdsokit: REPRODUCERS); DIR made if missing",
		  &o->outdir, .call = vk_output_dir),
		VK_OPT_HELP_ROW,
	};
	const struct vk_options opts = VK_OPTIONS(head, tail, opt);

	return vk_options_parse(&opts, argc, argv);
}

/* A target naming some clocks keeps only their cases; a whole function all. */
static size_t select_cases(const struct vk_target *t, struct vk_abi_case *c, size_t n)
{
	struct vk_clock all[VK_MAX_CLOCKS];
	size_t kept = 0;

	if (vk_funcs[t->func].shape != VK_SHAPE_CLOCK_TS ||
	    t->nclocks == vk_clocks_all(all, VK_MAX_CLOCKS))
		return n;
	for (size_t i = 0; i < n; i++) {
		for (int k = 0; k < t->nclocks; k++) {
			if (c[i].clock == t->clocks[k].id) {
				c[kept++] = c[i];
				break;
			}
		}
	}
	return kept;
}

/* Outcomes by class, per function and path, for the text report. */
static void count(const struct vk_results *rs, size_t first, const char *func,
		  struct vk_abi_count *counts, size_t *ncounts)
{
	for (size_t i = first; i < rs->n; i++) {
		const struct vk_result *r = rs->r[i];
		struct vk_abi_count *k = NULL;

		for (size_t j = 0; j < *ncounts; j++) {
			if (counts[j].func == func && counts[j].path == r->path)
				k = &counts[j];
		}
		if (!k) {
			k = &counts[(*ncounts)++];
			memset(k, 0, sizeof(*k));
			k->func = func;
			k->path = r->path;
		}
		k->cases++;
		if (r->status == VK_SKIP || r->status == VK_ERROR)
			k->skipped += r->status == VK_SKIP;
		else if (r->status == VK_FAIL)
			k->unexpected++;
		else if (!strncmp(r->detail, "allowed", 7))
			k->allowed++;
		else
			k->identical++;
	}
}

static int names(const struct vk_api *api, const struct vk_target *t, int nt)
{
	for (int i = 0; i < nt; i++) {
		if (t[i].func != api->func)
			continue;
		if (api->clock < 0)
			return 1;
		for (int k = 0; k < t[i].nclocks; k++) {
			if (t[i].clocks[k].id == api->clock)
				return 1;
		}
	}
	return 0;
}

/*
 * For vdsotest's lines: its own cases of the APIs it has, the syscall
 * judged against what vdsotest expects of it and the vDSO against the
 * syscall, into rs. Where the vDSO lacks the function, its cases SKIP.
 * In vdsotest's order: a clock's cases on the syscall, then on the
 * vDSO; getcpu's and gettimeofday's case by case, syscall then vDSO.
 */
static void run_vdsotest(const struct vk_abi *a, const struct vk_target *t, int nt,
			 struct vk_abi_case *cases, struct vk_results *rs)
{
	struct vk_abi l = *a;

	l.rs = rs;
	l.judge_syscall = 1;
	for_each_api(api) {
		size_t n = names(api, t, nt) ? vk_abi_vdsotest_cases(api, cases, MAX_CASES) : 0;
		size_t each = vk_funcs[api->func].shape == VK_SHAPE_CLOCK_TS ? n : 1;
		const char *why = a->cs->why[VK_PATH_VDSO][api->func];

		l.paths = why ? 0 : VK_PATH_BIT(VK_PATH_VDSO);
		for (size_t i = 0; i < n; i += each) {
			vk_abi_run(&l, cases + i, each);
			for (size_t k = i; why && k < i + each; k++)
				vk_result_skip(vk_results_add(rs, api->name, VK_PATH_VDSO,
							      cases[k].args), "%s", why);
		}
	}
}

/* The futex unlocks among the APIs named, a VK_FN_BIT() each, taken out
 * of argv (*argc counts what is left); every one where no API is named. */
static unsigned futex_targets(int *argc, char **argv)
{
	unsigned bits = 0;
	int kept = optind;

	if (optind == *argc)
		return VK_ABI_ALONE_FUNCS;
	for (int i = optind; i < *argc; i++) {
		const struct vk_api *api = NULL;

		for_each_listed_api(a)
			api = !strcmp(a->name, argv[i]) ? a : api;
		if (api && api->func >= VK_NFUNCS)
			bits |= VK_FN_BIT(api->func);
		else
			argv[kept++] = argv[i];
	}
	argv[kept] = NULL;
	*argc = kept;
	return bits;
}

static int run(const struct opts *o, const struct vk_target *t, int nt,
	       unsigned futex)
{
	struct vk_results rs = { 0 }, legacy = { 0 };
	struct vk_abi_count counts[VK_NALLFUNCS * VK_NPATHS];
	struct vk_abi_counts abi_counts = { .c = counts };
	struct vk_sysinfo si;
	const struct vk_report rep = { .command = "abi", .version = vk_version, .sys = &si,
				       .paths = o->call.paths, .rs = &rs, .legacy = &legacy,
				       .text = vk_report_abi_text, .ctx = &abi_counts };
	const struct vk_doc doc = { .command = "abi", .kind = VK_DOC_RESULTS, .results = &rep };
	struct vk_abi_case *cases = calloc(MAX_CASES, sizeof(*cases));
	struct vk_abi a = { .rs = &rs, .paths = o->call.paths, .timeout = o->timeout };
	struct vk_callset cs;
	struct vk_image im;
	size_t ncounts = 0, ran = 0;
	char err[256];
	int have_vdso = vk_image_open_live(&im) == 0, status;

	if (!cases || vk_abi_init()) {
		fprintf(stderr, "%s: vdsokit's own error: cannot set up the test pages\n", vk_progname);
		free(cases);
		return VK_EXIT_ERROR;
	}
	if (vk_callset_init(&cs, have_vdso ? &im : NULL, o->call.impl, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", vk_progname, err);
		free(cases);
		return VK_EXIT_USAGE;
	}
	a.cs = &cs;
	if (o->call.format == VK_FMT_VDSOTEST)
		run_vdsotest(&a, t, nt, cases, &legacy);
	for (int i = 0; i < nt; i++) {
		size_t first = rs.n, n = vk_abi_cases(t[i].func, cases, MAX_CASES);

		vk_abi_run(&a, cases, select_cases(&t[i], cases, n));
		count(&rs, first, vk_funcs[t[i].func].name, counts, &ncounts);
	}
	for (int f = VK_NFUNCS; f < VK_NALLFUNCS; f++) {
		size_t first = rs.n;

		if (!(futex & VK_FN_BIT(f)))
			continue;
		vk_abi_futex(&a, f);
		count(&rs, first, vk_funcs[f].name, counts, &ncounts);
	}
	abi_counts.n = ncounts;
	vk_results_finish(&rs);
	vk_results_finish(&legacy);
	/* Where findings are made (all, --output), each is confirmed first. */
	if (vk_all || o->outdir)
		vk_confirm_results(&rs, vk_confirm_argv, cs.impl_path);
	vk_sysinfo_read(&si);
	vk_run_render(o->call.format, &doc);
	for (size_t i = 0; i < rs.n; i++)
		ran += rs.r[i]->status != VK_SKIP;
	for (size_t i = 0; i < legacy.n; i++)
		ran += legacy.r[i]->status != VK_SKIP;
	status = vk_exit_of(rs.fails + legacy.fails, rs.errors + legacy.errors, ran > 0);
	if (o->outdir && vk_repro_write_results(vk_version, "abi", o->outdir, &rs))
		status = VK_EXIT_USAGE;
	vk_results_free(&legacy);
	vk_run_keep(&rs);
	free(cases);
	return status;
}

#define DEFAULT_PATHS (VK_PATH_BIT(VK_PATH_VDSO) | VK_PATH_BIT(VK_PATH_LIBC))

int cmd_abi(int argc, char **argv)
{
	struct opts o = { .timeout = 1 };
	struct vk_target t[VK_NFUNCS];
	enum vk_opt_result r = parse_opts(argc, argv, &o);
	unsigned futex = 0;
	int nt = 0, named = 0;

	if (r == VK_OPT_OK)
		r = vk_call_paths(&o.call, DEFAULT_PATHS);
	/* Every case is judged against the syscall: alone, it has nothing to be judged. */
	if (r == VK_OPT_OK && !(o.call.paths & ~VK_PATH_BIT(VK_PATH_SYSCALL)))
		r = vk_opt_error("--paths: abi compares vdso, libc or impl with the "
				 "syscall; name at least one of them");
	if (r == VK_OPT_OK) {
		named = argc > optind;
		futex = futex_targets(&argc, argv);
	}
	/* Only futex unlocks named: no other function. */
	if (r == VK_OPT_OK && (!named || argc > optind))
		r = vk_call_targets(argc, argv, t, &nt);
	return r == VK_OPT_OK ? run(&o, t, nt, futex) : vk_opt_exit(r);
}
