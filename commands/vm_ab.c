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
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base/children.h"
#include "core/base/json_read.h"
#include "core/bench/stats.h"
#include "core/vm/vm_ab.h"
#include "report/bench.h"
#include "report/json.h"
#include "report/vm_ab.h"
#include "commands/commands.h"
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

	for (size_t i = 0; first && i < sizeof(head) / sizeof(head[0]); i++)
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
	if (status >= 0) {
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

static void numbers(struct vk_json *j, const struct vk_jval *arr)
{
	for (size_t m = 0; m < vk_jarray_len(arr); m++)
		vk_json_double(j, NULL, vk_jnum(vk_jarray_at(arr, m)));
}

/*
 * key's arrays of api on path in every boot, as one array: "samples_ns"
 * as one series, "process_samples_ns" (an array of arrays) as the
 * processes of every boot.
 */
static void merged(struct vk_json *j, const struct side *s, const char *api, const char *path,
		   const char *key)
{
	vk_json_array(j, key);
	for (unsigned long k = 0; k < s->nbench; k++) {
		const struct vk_jval *r = vk_jget(s->bench[k], "results");

		for (size_t i = 0; i < vk_jarray_len(r); i++) {
			const struct vk_jval *e = vk_jarray_at(r, i), *ns = vk_jget(e, key);

			if (strcmp(vk_ab_str(vk_jget(e, "api"), ""), api) ||
			    strcmp(vk_ab_str(vk_jget(e, "path"), ""), path))
				continue;
			if (strcmp(key, "process_samples_ns")) {
				numbers(j, ns);
				continue;
			}
			for (size_t p = 0; p < vk_jarray_len(ns); p++) {
				vk_json_array(j, NULL);
				numbers(j, vk_jarray_at(ns, p));
				vk_json_end(j);
			}
		}
	}
	vk_json_end(j);
}

/* A reference figure of every boot's processes, and their median as the run's. */
static void merged_ref(struct vk_json *j, const struct side *s, const struct vk_bench_ref_key *key)
{
	double ref[1024];	/* far more than boots times processes */
	size_t n = 0;

	for (unsigned long k = 0; k < s->nbench; k++) {
		const struct vk_jval *p = vk_jget(vk_jget(s->bench[k], "reference"), key->each);

		for (size_t i = 0; i < vk_jarray_len(p) && n < sizeof(ref) / sizeof(ref[0]); i++)
			ref[n++] = vk_jnum(vk_jarray_at(p, i));
	}
	vk_json_array(j, key->each);
	for (size_t i = 0; i < n; i++)
		vk_json_double(j, NULL, ref[i]);
	vk_json_end(j);
	vk_json_double(j, key->run, n ? vk_median(ref, n) : NAN);
}

static void merged_reference(struct vk_json *j, const struct side *s)
{
	vk_json_object(j, "reference");
	for (int k = 0; k < VK_REF_KINDS; k++)
		merged_ref(j, s, &vk_bench_ref_keys[k]);
	vk_json_end(j);
}

/* The first boot's bench file, its results' samples those of every boot. */
static void write_bench(const struct side *s, FILE *f)
{
	const struct vk_jval *first = s->bench[0], *r = vk_jget(first, "results");
	struct vk_json j;

	vk_json_init(&j, f);
	vk_json_object(&j, NULL);
	vk_json_str(&j, "schema", vk_ab_str(vk_jget(first, "schema"), "?"));
	vk_json_str(&j, "tool_version", vk_ab_str(vk_jget(first, "tool_version"), "?"));
	vk_json_object(&j, "kernel");
	vk_json_str(&j, "release", vk_ab_str(vk_jget(vk_jget(first, "kernel"), "release"), "?"));
	vk_json_str(&j, "machine", vk_ab_str(vk_jget(vk_jget(first, "kernel"), "machine"), "?"));
	vk_json_end(&j);
	vk_json_str(&j, "clocksource", vk_jstr(vk_jget(first, "clocksource")));
	vk_json_uint(&j, "boots", s->nbench);
	merged_reference(&j, s);
	vk_json_array(&j, "results");
	for (size_t i = 0; i < vk_jarray_len(r); i++) {
		const struct vk_jval *e = vk_jarray_at(r, i);
		const char *api = vk_ab_str(vk_jget(e, "api"), "?"), *p = vk_ab_str(vk_jget(e, "path"), "?");

		vk_json_object(&j, NULL);
		vk_json_str(&j, "api", api);
		vk_json_str(&j, "path", p);
		if (vk_jget(e, "samples_ns")) {
			merged(&j, s, api, p, "samples_ns");
			merged(&j, s, api, p, "process_samples_ns");
		} else
			vk_json_str(&j, "skipped", vk_ab_str(vk_jget(e, "skipped"), "skipped"));
		vk_json_end(&j);
	}
	vk_json_end(&j);
	vk_json_end(&j);
	fputc('\n', f);
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

	if (o->output) {
		snprintf(dir, len, "%s", o->output);
		if (mkdir(dir, 0755) && errno != EEXIST) {
			fprintf(stderr, "%s: --output %s: %s\n", cmd, dir, strerror(errno));
			return -1;
		}
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
		ab.release[k] = vk_ab_str(vk_jget(vk_jget(s[k].doc[INFO], "kernel"), "release"), "?");
		if (!s[0].nbench || !s[1].nbench)
			continue;
		snprintf(file[k], sizeof(file[k]), "%s/%s.json", dir, k ? "b" : "a");
		if (!(f = vk_files_open(&files, file[k]))) {
			vk_files_drop(&files);
			return VK_EXIT_USAGE;
		}
		write_bench(&s[k], f);
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
