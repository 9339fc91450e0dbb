// SPDX-License-Identifier: MIT
/*
 * vdsokit vm --kernel A --kernel B: the before and after of a patch. Each
 * kernel boots in turn (A B A B ...); its first boot runs info, fallback,
 * verify and bench, the later ones bench alone. What differs in kind is
 * said always; the speed, under KVM only, by compare on the two kernels'
 * bench samples.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/array.h"
#include "core/base/json_read.h"
#include "core/base/safe.h"
#include "core/benchfile/benchfile.h"
#include "core/benchfile/keys.h"
#include "core/vm/vm_ab.h"
#include "report/format.h"
#include "report/vm_ab.h"
#include "commands/commands.h"
#include "commands/compare_cmd.h"
#include "commands/vm_cmd.h"

#define MAX_WORDS 96
enum { INFO, FALLBACK, VERIFY, BENCH, NDOCS };

struct side {
	const char *kernel;
	struct vk_vm first, later;	/* the first boot's commands; bench alone */
	char qemu[PATH_MAX], initrd[2][PATH_MAX];
	struct vk_jval *doc[NDOCS];	/* the first boot's reports */
	struct vk_compare_runs runs;	/* every boot's bench report, read as compare reads */
	const struct vk_jval **bench;	/* each one's document, in runs */
	unsigned long nbench;
};

/* The guest's words: info, fallback, verify and bench, or bench alone. */
static int words(const struct vk_vm_opts *o, int first, char **w)
{
	static char *const head[] = {
		"info", "--format", "json", "", "fallback", "--format", "json", "",
		"verify", "--format", "json", "--max-fails", "0", "-d", "0.1", "",
	};
	int n = 0;

	for (size_t i = 0; first && i < ARRAY_SIZE(head); i++)
		w[n++] = head[i];
	w[n++] = "bench";
	w[n++] = "--format";
	w[n++] = "json";
	for (int i = 0; i < o->nwords && n < MAX_WORDS; i++)
		w[n++] = o->words[i];
	return n;
}

static int prepare(const struct vk_vm_opts *o, struct side *s)
{
	char *w[MAX_WORDS], err[1024];

	for (int first = 1; first >= 0; first--) {
		struct vk_vm *vm = first ? &s->first : &s->later;

		if (vk_vm_prepare(vm, s->kernel, &o->setup, w, words(o, first, w), s->qemu,
				  s->initrd[first], PATH_MAX, err, sizeof(err))) {
			fprintf(stderr, "%s: %s\n", vk_progname, err);
			return -1;
		}
	}
	vk_vm_say_smp(o, &s->first);
	return 0;
}

static const char *const doc_name[NDOCS] = { "info", "fallback", "verify", "bench" };

/* A boot's bench report, refused as compare refuses a file; -1 said. */
static int bench_report(struct side *s, const char *text, size_t len,
			const char *label)
{
	struct vk_bf_err e;

	if (vk_compare_runs_parse(&s->runs, "bench's report", text, len, &e)) {
		fprintf(stderr, "%s: on kernel %s, %s\n", vk_progname, label, e.msg);
		return -1;
	}
	s->bench[s->nbench++] = s->runs.f[s->runs.nf - 1].doc;
	return 0;
}

/* One boot of a side: its reports parsed, or the status to exit with. */
static int boot(const struct vk_vm_opts *o, struct side *s, int first,
		const char *label)
{
	struct vk_vm *vm = first ? &s->first : &s->later;
	int ncmds = first ? NDOCS : 1, status;
	char log[PATH_MAX] = "";
	struct vk_vm_result r;

	status = vk_vm_run(o, vm, ncmds, VK_VM_KEEP_STDOUT, log, sizeof(log), &r);
	if (status != VK_EXIT_OK) {
		fprintf(stderr, "%s: kernel %s (%s) gave no result\n", vk_progname, label, s->kernel);
		vk_vm_result_free(&r);
		return status;
	}
	for (int i = 0; i < ncmds; i++) {
		int d = first ? i : BENCH;
		struct vk_jerr err;
		struct vk_jval *doc;

		/* A bench that cannot time calls here says why on stderr. */
		if (d == BENCH && r.status[i] == VK_EXIT_SKIP)
			continue;
		doc = r.out[i] ? vk_jparse(r.out[i], r.outlen[i], &err) : NULL;
		if (!doc || (r.status[i] != VK_EXIT_OK && r.status[i] != VK_EXIT_FAIL)) {
			fprintf(stderr, "%s: on kernel %s, %s exited %d%s\n", vk_progname, label, doc_name[d],
				r.status[i], doc ? "" : " with no JSON report");
			vk_jfree(doc);
			vk_vm_result_free(&r);
			return r.status[i] == VK_EXIT_FAIL || r.status[i] == VK_EXIT_OK ?
				       VK_VM_NO_RESULT : r.status[i];
		}
		if (d != BENCH) {
			s->doc[d] = doc;
			continue;
		}
		/* Read again, as compare reads a file: checked, its samples taken out. */
		vk_jfree(doc);
		if (bench_report(s, r.out[i], r.outlen[i], label)) {
			vk_vm_result_free(&r);
			return VK_VM_NO_RESULT;
		}
	}
	vk_vm_result_free(&r);
	return -1;
}

/* --- the speed: every boot's samples of a side in one bench file --- */

/*
 * The boots' bench reports merged as compare merges a side's runs, as one
 * bench file through bench's writer; -1 said.
 */
static int write_bench(struct side *s, const char *file, FILE *f)
{
	struct vk_bench_report rep = { 0 };
	struct vk_timer timer;
	struct vk_bf_err e;

	if (vk_compare_runs_merge(&s->runs, &e) ||
	    vk_compare_runs_report(&s->runs, &rep, &timer, &e)) {
		fprintf(stderr, "%s: %s: %s\n", vk_progname, file, e.msg);
		vk_compare_runs_report_free(&rep);
		return -1;
	}
	vk_render(f, VK_FMT_JSON, &(const struct vk_doc){ .command = "bench", .kind = VK_DOC_BENCH, .bench = &rep });
	vk_compare_runs_report_free(&rep);
	return 0;
}

static int output_dir(const struct vk_vm_opts *o, char *dir, size_t len)
{
	const char *tmp = getenv("TMPDIR");

	/* --output's was made, and found writable, before the boots. */
	if (o->output) {
		snprintf(dir, len, "%s", o->output);
		return 0;
	}
	snprintf(dir, len, "%s/vdsokit-vm-ab-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "%s: cannot make a directory %s: %s\n", vk_progname, dir, strerror(errno));
		return -1;
	}
	return 0;
}

static int run_rounds(const struct vk_vm_opts *o, struct side *s)
{
	static const char *const label[2] = { "A", "B" };

	for (unsigned long round = 0; round < o->rounds; round++) {
		for (int k = 0; k < 2; k++) {
			int status = boot(o, &s[k], round == 0, label[k]);

			if (status >= 0)
				return status;
			/* Once KVM has failed, every boot is under TCG. */
			if (!s[k].first.kvm || !s[k].later.kvm)
				s[0].first.kvm = s[0].later.kvm = s[1].first.kvm = s[1].later.kvm = 0;
		}
	}
	return -1;
}

/*
 * Under TCG, where compare gives no table: each row a boot's bench
 * failed (its calls failed), which has no figure in that side's file, as
 * compare says it under KVM; how many.
 */
static size_t failed_rows(const struct side *s)
{
	static const char *const label[2] = { "A", "B" };
	size_t n = 0;

	for (int k = 0; k < 2; k++) {
		for (size_t i = 0; i < s[k].runs.n; i++) {
			const struct vk_series *r = &s[k].runs.s[i];

			if (!r->failed)
				continue;
			printf("%sbench %s %s: no figure, no verdict: on kernel %s, %s\n", n ? "" : "\n",
			       vk_safe(r->api), vk_safe(r->path), label[k],
			       vk_safe(r->skipped ? r->skipped : "its calls failed"));
			n++;
		}
	}
	return n;
}

static int judge(const struct vk_vm_opts *o, struct side *s)
{
	const struct vk_ab_docs d[2] = {
		{ s[0].doc[INFO], s[0].doc[FALLBACK], s[0].doc[VERIFY], s[0].bench, s[0].nbench },
		{ s[1].doc[INFO], s[1].doc[FALLBACK], s[1].doc[VERIFY], s[1].bench, s[1].nbench },
	};
	static struct vk_files files;
	struct vk_ab_diffs ds;
	FILE *f;
	char dir[PATH_MAX], file[2][PATH_MAX + 8];
	int status = VK_EXIT_OK;
	struct vk_ab ab = { .rounds = o->rounds, .emulated = !s[0].first.kvm,
			    .arch = s[0].first.arch->name };

	vk_ab_diff(&ds, &d[0], &d[1]);
	if (output_dir(o, dir, sizeof(dir)))
		return VK_EXIT_USAGE;
	for (int k = 0; k < 2; k++) {
		ab.kernel[k] = s[k].kernel;
		ab.release[k] = vk_ab_str(vk_jget(vk_jget(vk_jget(s[k].doc[INFO], VK_DOC_ENVIRONMENT),
								  VK_DOC_KERNEL), VK_DOC_RELEASE), "?");
		if (!s[0].nbench || !s[1].nbench)
			continue;
		snprintf(file[k], sizeof(file[k]), "%s/%s.json", dir, k ? "b" : "a");
		if (!(f = vk_files_open(&files, file[k]))) {
			vk_files_drop(&files);
			return VK_EXIT_USAGE;
		}
		if (write_bench(&s[k], file[k], f)) {
			vk_files_drop(&files);
			return VK_EXIT_USAGE;
		}
		ab.bench[k] = file[k];
	}
	if (vk_files_commit(&files))
		return VK_EXIT_USAGE;
	ab.diffs = ds.d;
	ab.ndiffs = ds.n;
	ab.total = ds.total;
	ab.worse = ds.worse;
	ab.better = ds.better;
	vk_report_ab(stdout, &ab);
	/* A run's row whose calls failed fails A/B, as compare fails it. */
	if (ab.emulated && ab.bench[0] && failed_rows(s))
		status = VK_EXIT_FAIL;
	if (!ab.emulated && ab.bench[0]) {
		char *const paths[2] = { file[0], file[1] };

		printf("\n");
		/* The table `vdsokit compare a.json b.json` prints of the files
		 * left, its messages named as compare's. */
		vk_progname = "vdsokit compare";
		status = vk_compare_files(paths, 1, 1);
		vk_progname = "vdsokit vm";
	}
	return ds.worse && status == VK_EXIT_OK ? VK_EXIT_FAIL : status;
}

/* Two kernels of one arch, as their headers say; 0, or -1 said. */
static int same_arch(const struct vk_vm_opts *o)
{
	const struct vk_vm_arch *a[2];
	char err[512];

	for (int k = 0; k < 2; k++) {
		if (vk_vm_kernel_arch(o->kernel[k], &a[k], err, sizeof(err))) {
			fprintf(stderr, "%s: %s\n", vk_progname, err);
			return -1;
		}
	}
	if (a[0] == a[1])
		return 0;
	fprintf(stderr, "%s: A is a %s kernel and B a %s one: compare kernels of one arch\n", vk_progname,
		a[0]->name, a[1]->name);
	return -1;
}

int vk_vm_ab(const struct vk_vm_opts *o)
{
	struct side s[2] = { { .kernel = o->kernel[0] }, { .kernel = o->kernel[1] } };
	int status = VK_EXIT_USAGE, kvm;
	char why[PATH_MAX + 100];

	if (o->dry_run)
		return vk_usage_error("--dry-run takes one --kernel");
	if (!o->setup.arch && same_arch(o))
		return VK_EXIT_USAGE;
	for (int k = 0; k < 2; k++) {
		struct vk_bf_err e;

		s[k].bench = calloc(o->rounds, sizeof(*s[k].bench));
		if (!s[k].bench || vk_compare_runs_open(&s[k].runs, o->rounds, &e)) {
			fprintf(stderr, "%s: %s\n", vk_progname, strerror(ENOMEM));
			goto out;
		}
		if (prepare(o, &s[k]))
			goto out;
	}
	kvm = o->accel == VK_ACCEL_KVM ||
	      (o->accel == VK_ACCEL_AUTO && vk_vm_kvm_possible(s[0].first.arch, s[0].qemu, why,
								sizeof(why)));
	if (o->accel == VK_ACCEL_AUTO && *why)
		fprintf(stderr, "%s: %s\n", vk_progname, why);
	s[0].first.kvm = s[0].later.kvm = s[1].first.kvm = s[1].later.kvm = kvm;
	status = run_rounds(o, s);
	if (status < 0)
		status = judge(o, s);
out:
	for (int k = 0; k < 2; k++) {
		for (int d = 0; d < BENCH; d++)
			vk_jfree(s[k].doc[d]);
		vk_compare_free_runs(&s[k].runs);
		free(s[k].bench);
	}
	return status;
}
