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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/base/children.h"
#include "core/base/json_read.h"
#include "core/bench/stats.h"
#include "core/vm/vm_ab.h"
#include "report/bench.h"
#include "report/bench_file.h"
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
	struct vk_jval **bench;		/* every boot's bench report */
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

static int prepare(const char *cmd, const struct vk_vm_opts *o, struct side *s)
{
	char *w[MAX_WORDS], err[1024];

	for (int first = 1; first >= 0; first--) {
		struct vk_vm *vm = first ? &s->first : &s->later;

		if (vk_vm_prepare(vm, s->kernel, &o->setup, w, words(o, first, w), s->qemu,
				  s->initrd[first], PATH_MAX, err, sizeof(err))) {
			fprintf(stderr, "%s: %s\n", cmd, err);
			return -1;
		}
	}
	vk_vm_say_smp(cmd, o, &s->first);
	return 0;
}

static const char *const doc_name[NDOCS] = { "info", "fallback", "verify", "bench" };

/* One boot of a side: its reports parsed, or the status to exit with. */
static int boot(const char *cmd, const struct vk_vm_opts *o, struct side *s, int first,
		const char *label)
{
	struct vk_vm *vm = first ? &s->first : &s->later;
	int ncmds = first ? NDOCS : 1, status;
	char log[PATH_MAX] = "";
	struct vk_vm_result r;

	status = vk_vm_run(cmd, o, vm, ncmds, VK_VM_KEEP_STDOUT, log, sizeof(log), &r);
	if (status != VK_EXIT_OK) {
		fprintf(stderr, "%s: kernel %s (%s) gave no result\n", cmd, label, s->kernel);
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
			fprintf(stderr, "%s: on kernel %s, %s exited %d%s\n", cmd, label, doc_name[d],
				r.status[i], doc ? "" : " with no JSON report");
			vk_jfree(doc);
			vk_vm_result_free(&r);
			return r.status[i] == VK_EXIT_FAIL || r.status[i] == VK_EXIT_OK ?
				       VK_VM_NO_RESULT : r.status[i];
		}
		if (d == BENCH)
			s->bench[s->nbench++] = doc;
		else
			s->doc[d] = doc;
	}
	vk_vm_result_free(&r);
	return -1;
}

/* --- the speed: every boot's samples of a side in one bench file --- */

/* api on path's row of a boot's bench report, or NULL. */
static const struct vk_jval *find_row(const struct vk_jval *doc, const char *api, const char *path)
{
	const struct vk_jval *r = vk_jget(doc, VK_BF_RESULTS);

	for (size_t i = 0; i < vk_jarray_len(r); i++) {
		const struct vk_jval *e = vk_jarray_at(r, i);

		if (!strcmp(vk_ab_str(vk_jget(e, VK_BF_API), ""), api) &&
		    !strcmp(vk_ab_str(vk_jget(e, VK_BF_PATH), ""), path))
			return e;
	}
	return NULL;
}

/* Every boot's processes of row's API and path, in turn; -1: out of memory. */
static int merge_row(const struct side *s, struct vk_bench_row *row)
{
	size_t n = 0, ngroups = 0;
	double *x;
	int *gn;

	for (int pass = 0; pass < 2; pass++) {
		for (unsigned long k = 0; k < s->nbench; k++) {
			const struct vk_jval *p = vk_jget(find_row(s->bench[k], row->api, row->path),
							  VK_BF_PROCESS_SAMPLES_NS);

			for (size_t i = 0; i < vk_jarray_len(p); i++) {
				const struct vk_jval *one = vk_jarray_at(p, i);

				if (pass)
					gn[row->ngroups++] = vk_jarray_len(one);
				for (size_t m = 0; pass && m < vk_jarray_len(one); m++)
					x[row->n++] = vk_jnum(vk_jarray_at(one, m));
				n += vk_jarray_len(one);
				ngroups++;
			}
		}
		if (pass)
			break;
		row->samples = x = calloc(n + 1, sizeof(*x));
		row->group_n = gn = calloc(ngroups + 1, sizeof(*gn));
		if (!x || !gn)
			return -1;
	}
	return 0;
}

/* A reference figure of every boot's processes, and their median as the run's. */
static int merge_reference(const struct side *s, struct vk_bench_report *rep)
{
	struct vk_bench_ref *ref;
	double *x;
	size_t cap = 0;

	for (unsigned long k = 0; k < s->nbench; k++)
		cap += vk_jarray_len(vk_jget(vk_jget(s->bench[k], VK_BF_REFERENCE), VK_BF_REF_CPU_EACH));
	rep->ref = ref = calloc(cap + 1, sizeof(*ref));
	x = calloc(cap + 1, sizeof(*x));
	if (!ref || !x) {
		free(x);
		return -1;
	}
	rep->nref = cap;
	for (int kind = 0; kind < VK_REF_KINDS; kind++) {
		size_t n = 0;

		for (unsigned long k = 0; k < s->nbench; k++) {
			const struct vk_jval *p = vk_jget(vk_jget(s->bench[k], VK_BF_REFERENCE),
							  vk_bench_ref_keys[kind].each);

			for (size_t i = 0; i < vk_jarray_len(p) && n < cap; i++, n++)
				ref[n].ns[kind] = x[n] = vk_jnum(vk_jarray_at(p, i));
		}
		for (size_t i = n; i < cap; i++)
			ref[i].ns[kind] = NAN;
		rep->reference.ns[kind] = n ? vk_median(x, n) : NAN;
	}
	free(x);
	return 0;
}

static void free_rows(struct vk_bench_row *rows, size_t n)
{
	for (size_t i = 0; rows && i < n; i++) {
		free((double *)rows[i].samples);
		free((int *)rows[i].group_n);
	}
	free(rows);
}

/* The rows of the first boot's results, each with the samples of every boot; NULL: out of memory. */
static struct vk_bench_row *merge_rows(const struct side *s, size_t *n)
{
	const struct vk_jval *r = vk_jget(s->bench[0], VK_BF_RESULTS);
	struct vk_bench_row *rows = calloc(vk_jarray_len(r) + 1, sizeof(*rows));

	*n = 0;
	for (size_t i = 0; rows && i < vk_jarray_len(r); i++) {
		const struct vk_jval *e = vk_jarray_at(r, i);
		struct vk_bench_row *row = &rows[(*n)++];

		row->api = vk_ab_str(vk_jget(e, VK_BF_API), "?");
		row->path = vk_ab_str(vk_jget(e, VK_BF_PATH), "?");
		if (!vk_jget(e, VK_BF_SAMPLES_NS))
			row->skipped = vk_ab_str(vk_jget(e, VK_BF_SKIPPED), "skipped");
		else if (merge_row(s, row)) {
			free_rows(rows, *n);
			return NULL;
		}
	}
	return rows;
}

/*
 * The first boot's bench file, through bench's writer, its results'
 * samples and reference those of every boot; -1: out of memory.
 */
static int write_bench(const struct side *s, FILE *f)
{
	struct vk_bench_report rep = { .boots = s->nbench };
	struct vk_timer timer;
	struct vk_bench_row *rows;
	int status = -1;

	vk_bench_file_run(s->bench[0], &rep, &timer);
	rep.rows = rows = merge_rows(s, &rep.n);
	if (rows && !merge_reference(s, &rep)) {
		vk_render(f, VK_FMT_JSON,
			  &(const struct vk_doc){ .command = "bench", .kind = VK_DOC_BENCH, .bench = &rep });
		status = 0;
	}
	free_rows(rows, rep.n);
	free((struct vk_bench_ref *)rep.ref);
	return status;
}

/* compare's table of B's file against A's, by this same binary. */
static int compare(const char *a, const char *b)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = vk_fork();
	if (pid == 0) {
		execl("/proc/self/exe", "vdsokit", "compare", a, b, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || vk_waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return VK_EXIT_USAGE;
	return WEXITSTATUS(status);
}

static int output_dir(const char *cmd, const struct vk_vm_opts *o, char *dir, size_t len)
{
	const char *tmp = getenv("TMPDIR");

	/* --output's was made, and found writable, before the boots. */
	if (o->output) {
		snprintf(dir, len, "%s", o->output);
		return 0;
	}
	snprintf(dir, len, "%s/vdsokit-vm-ab-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "%s: cannot make a directory %s: %s\n", cmd, dir, strerror(errno));
		return -1;
	}
	return 0;
}

static int run_rounds(const char *cmd, const struct vk_vm_opts *o, struct side *s)
{
	static const char *const label[2] = { "A", "B" };

	for (unsigned long round = 0; round < o->rounds; round++) {
		for (int k = 0; k < 2; k++) {
			int status = boot(cmd, o, &s[k], round == 0, label[k]);

			if (status >= 0)
				return status;
			/* Once KVM has failed, every boot is under TCG. */
			if (!s[k].first.kvm || !s[k].later.kvm)
				s[0].first.kvm = s[0].later.kvm = s[1].first.kvm = s[1].later.kvm = 0;
		}
	}
	return -1;
}

static int judge(const char *cmd, const struct vk_vm_opts *o, struct side *s)
{
	const struct vk_ab_docs d[2] = {
		{ s[0].doc[INFO], s[0].doc[FALLBACK], s[0].doc[VERIFY],
		  (const struct vk_jval *const *)s[0].bench, s[0].nbench },
		{ s[1].doc[INFO], s[1].doc[FALLBACK], s[1].doc[VERIFY],
		  (const struct vk_jval *const *)s[1].bench, s[1].nbench },
	};
	static struct vk_files files;
	struct vk_ab_diffs ds;
	FILE *f;
	char dir[PATH_MAX], file[2][PATH_MAX + 8];
	int status = VK_EXIT_OK;
	struct vk_ab ab = { .rounds = o->rounds, .emulated = !s[0].first.kvm,
			    .arch = s[0].first.arch->name };

	vk_ab_diff(&ds, &d[0], &d[1]);
	if (output_dir(cmd, o, dir, sizeof(dir)))
		return VK_EXIT_USAGE;
	files.cmd = cmd;
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
		if (write_bench(&s[k], f)) {
			fprintf(stderr, "%s: %s: %s\n", cmd, file[k], strerror(ENOMEM));
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
	if (!ab.emulated && ab.bench[0]) {
		printf("\n");
		status = compare(file[0], file[1]);
	}
	return ds.worse && status == VK_EXIT_OK ? VK_EXIT_FAIL : status;
}

/* Two kernels of one arch, as their headers say; 0, or -1 said. */
static int same_arch(const char *cmd, const struct vk_vm_opts *o)
{
	const struct vk_vm_arch *a[2];
	char err[512];

	for (int k = 0; k < 2; k++) {
		if (vk_vm_kernel_arch(o->kernel[k], &a[k], err, sizeof(err))) {
			fprintf(stderr, "%s: %s\n", cmd, err);
			return -1;
		}
	}
	if (a[0] == a[1])
		return 0;
	fprintf(stderr, "%s: A is a %s kernel and B a %s one: compare kernels of one arch\n", cmd,
		a[0]->name, a[1]->name);
	return -1;
}

int vk_vm_ab(const char *cmd, const struct vk_vm_opts *o)
{
	struct side s[2] = { { .kernel = o->kernel[0] }, { .kernel = o->kernel[1] } };
	int status = VK_EXIT_USAGE, kvm;
	char why[PATH_MAX + 100];

	if (o->dry_run)
		return vk_usage_error(cmd, "--dry-run takes one --kernel");
	if (!o->setup.arch && same_arch(cmd, o))
		return VK_EXIT_USAGE;
	for (int k = 0; k < 2; k++) {
		s[k].bench = calloc(o->rounds, sizeof(*s[k].bench));
		if (!s[k].bench || prepare(cmd, o, &s[k]))
			goto out;
	}
	kvm = o->accel == VK_ACCEL_KVM ||
	      (o->accel == VK_ACCEL_AUTO && vk_vm_kvm_possible(s[0].first.arch, s[0].qemu, why,
								sizeof(why)));
	if (o->accel == VK_ACCEL_AUTO && *why)
		fprintf(stderr, "%s: %s\n", cmd, why);
	s[0].first.kvm = s[0].later.kvm = s[1].first.kvm = s[1].later.kvm = kvm;
	status = run_rounds(cmd, o, s);
	if (status < 0)
		status = judge(cmd, o, s);
out:
	for (int k = 0; k < 2; k++) {
		for (int d = 0; d < BENCH; d++)
			vk_jfree(s[k].doc[d]);
		for (unsigned long i = 0; i < s[k].nbench; i++)
			vk_jfree(s[k].bench[i]);
		free(s[k].bench);
	}
	return status;
}
