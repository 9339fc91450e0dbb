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
#include "report/bench.h"
#include "report/json.h"
#include "report/vm_ab.h"
#include "commands/commands.h"
#include "commands/vm_cmd.h"

#define MAX_WORDS 96
#define MAX_DIFFS 256
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

/* --- what differs in kind --- */

struct diffs {
	struct vk_ab_diff *d;
	size_t n;
};

static void add(struct diffs *ds, const char *kind, const char *what, const char *a,
		const char *b)
{
	struct vk_ab_diff *d;

	if (ds->n == MAX_DIFFS)
		return;
	d = &ds->d[ds->n++];
	d->kind = kind;
	snprintf(d->what, sizeof(d->what), "%s", what);
	snprintf(d->a, sizeof(d->a), "%s", a);
	snprintf(d->b, sizeof(d->b), "%s", b);
}

static const char *str_or(const struct vk_jval *v, const char *none)
{
	const char *s = vk_jstr(v);

	return s ? s : none;
}

/* How a function stands in a vDSO: its symbol and where it runs, or why it is absent. */
static void function_state(const struct vk_jval *fn, char *buf, size_t len)
{
	const struct vk_jval *sym = vk_jget(fn, "symbol");

	if (!fn)
		snprintf(buf, len, "not an entry of this ABI");
	else if (vk_jget(fn, "found")->type == VK_JTRUE)
		snprintf(buf, len, "%s@%s, %s", str_or(vk_jget(sym, "name"), "?"),
			 str_or(vk_jget(sym, "version"), "?"), str_or(vk_jget(fn, "runs"), "?"));
	else
		snprintf(buf, len, "absent: %s", str_or(vk_jget(fn, "absent"), "?"));
}

static const struct vk_jval *find_by(const struct vk_jval *arr, const char *key,
				     const char *val)
{
	for (size_t i = 0; i < vk_jarray_len(arr); i++) {
		const struct vk_jval *e = vk_jarray_at(arr, i);

		if (!strcmp(str_or(vk_jget(e, key), ""), val))
			return e;
	}
	return NULL;
}

static void diff_functions(struct diffs *ds, const struct vk_jval *a, const struct vk_jval *b)
{
	const struct vk_jval *fa = vk_jget(vk_jget(a, "vdso"), "functions");
	const struct vk_jval *fb = vk_jget(vk_jget(b, "vdso"), "functions");
	char sa[128], sb[128];

	for (int side = 0; side < 2; side++) {
		const struct vk_jval *mine = side ? fb : fa, *other = side ? fa : fb;

		for (size_t i = 0; i < vk_jarray_len(mine); i++) {
			const char *name = str_or(vk_jget(vk_jarray_at(mine, i), "function"), "?");
			const struct vk_jval *x = find_by(fa, "function", name);
			const struct vk_jval *y = find_by(fb, "function", name);

			/* B's own functions once: those A lacks. */
			if (side && find_by(other, "function", name))
				continue;
			function_state(x, sa, sizeof(sa));
			function_state(y, sb, sizeof(sb));
			if (strcmp(sa, sb))
				add(ds, "function", name, sa, sb);
		}
	}
}

static void diff_clocksource(struct diffs *ds, const struct vk_jval *a, const struct vk_jval *b)
{
	char sa[128], sb[128];

	for (int k = 0; k < 2; k++) {
		const struct vk_jval *cs = vk_jget(k ? b : a, "clocksource");

		snprintf(k ? sb : sa, 128, "%s (vDSO-capable: %s)", str_or(vk_jget(cs, "current"), "?"),
			 str_or(vk_jget(cs, "vdso_capable"), "?"));
	}
	if (strcmp(sa, sb))
		add(ds, "clocksource", "current", sa, sb);
}

/* A result's key and state, as the reports of fallback and verify give them. */
static void result_key(const struct vk_jval *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s %s", str_or(vk_jget(r, "api"), "?"),
		 str_or(vk_jget(r, "path"), "?"), str_or(vk_jget(r, "check"), "?"));
}

static void result_state(const struct vk_jval *r, int with_detail, char *buf, size_t len)
{
	if (!r)
		snprintf(buf, len, "not run");
	else if (with_detail || strcmp(str_or(vk_jget(r, "status"), ""), "pass"))
		snprintf(buf, len, "%s: %s", str_or(vk_jget(r, "status"), "?"),
			 str_or(vk_jget(r, "detail"), str_or(vk_jget(r, "reason"), "")));
	else
		snprintf(buf, len, "pass");
}

static const struct vk_jval *find_result(const struct vk_jval *arr, const char *key)
{
	char k[160];

	for (size_t i = 0; i < vk_jarray_len(arr); i++) {
		result_key(vk_jarray_at(arr, i), k, sizeof(k));
		if (!strcmp(k, key))
			return vk_jarray_at(arr, i);
	}
	return NULL;
}

/* Results whose state differs; *worse counts those B fails and A does not. */
static void diff_results(struct diffs *ds, const char *kind, int with_detail,
			 const struct vk_jval *a, const struct vk_jval *b, int *worse)
{
	const struct vk_jval *ra = vk_jget(a, "results"), *rb = vk_jget(b, "results");
	char key[160], sa[128], sb[128];

	for (int side = 0; side < 2; side++) {
		const struct vk_jval *mine = side ? rb : ra;

		for (size_t i = 0; i < vk_jarray_len(mine); i++) {
			const struct vk_jval *x, *y;

			result_key(vk_jarray_at(mine, i), key, sizeof(key));
			x = find_result(ra, key);
			y = find_result(rb, key);
			if (side && x)
				continue;
			result_state(x, with_detail, sa, sizeof(sa));
			result_state(y, with_detail, sb, sizeof(sb));
			if (strcmp(sa, sb))
				add(ds, kind, key, sa, sb);
			*worse += y && !strcmp(str_or(vk_jget(y, "status"), ""), "fail") &&
				  !(x && !strcmp(str_or(vk_jget(x, "status"), ""), "fail"));
		}
	}
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

			if (strcmp(str_or(vk_jget(e, "api"), ""), api) ||
			    strcmp(str_or(vk_jget(e, "path"), ""), path))
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
static int write_bench(const struct side *s, const char *path)
{
	const struct vk_jval *first = s->bench[0], *r = vk_jget(first, "results");
	FILE *f = fopen(path, "we");
	struct vk_json j;

	if (!f)
		return -1;
	vk_json_init(&j, f);
	vk_json_object(&j, NULL);
	vk_json_str(&j, "schema", str_or(vk_jget(first, "schema"), "?"));
	vk_json_str(&j, "tool_version", str_or(vk_jget(first, "tool_version"), "?"));
	vk_json_object(&j, "kernel");
	vk_json_str(&j, "release", str_or(vk_jget(vk_jget(first, "kernel"), "release"), "?"));
	vk_json_str(&j, "machine", str_or(vk_jget(vk_jget(first, "kernel"), "machine"), "?"));
	vk_json_end(&j);
	vk_json_str(&j, "clocksource", vk_jstr(vk_jget(first, "clocksource")));
	vk_json_uint(&j, "boots", s->nbench);
	merged_reference(&j, s);
	vk_json_array(&j, "results");
	for (size_t i = 0; i < vk_jarray_len(r); i++) {
		const struct vk_jval *e = vk_jarray_at(r, i);
		const char *api = str_or(vk_jget(e, "api"), "?"), *p = str_or(vk_jget(e, "path"), "?");

		vk_json_object(&j, NULL);
		vk_json_str(&j, "api", api);
		vk_json_str(&j, "path", p);
		if (vk_jget(e, "samples_ns")) {
			merged(&j, s, api, p, "samples_ns");
			merged(&j, s, api, p, "process_samples_ns");
		} else
			vk_json_str(&j, "skipped", str_or(vk_jget(e, "skipped"), "skipped"));
		vk_json_end(&j);
	}
	vk_json_end(&j);
	vk_json_end(&j);
	fputc('\n', f);
	return fclose(f) ? -1 : 0;
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
	struct vk_ab_diff all[MAX_DIFFS];
	struct diffs ds = { all, 0 };
	char dir[PATH_MAX], file[2][PATH_MAX + 8];
	int worse = 0, status = VK_EXIT_OK;
	struct vk_ab ab = { .rounds = o->rounds, .emulated = !s[0].first.kvm,
			    .arch = s[0].first.arch->name };

	diff_clocksource(&ds, s[0].doc[INFO], s[1].doc[INFO]);
	diff_functions(&ds, s[0].doc[INFO], s[1].doc[INFO]);
	diff_results(&ds, "fallback", 1, s[0].doc[FALLBACK], s[1].doc[FALLBACK], &worse);
	diff_results(&ds, "verify", 0, s[0].doc[VERIFY], s[1].doc[VERIFY], &worse);
	if (output_dir(cmd, o, dir, sizeof(dir)))
		return VK_EXIT_USAGE;
	for (int k = 0; k < 2; k++) {
		ab.kernel[k] = s[k].kernel;
		ab.release[k] = str_or(vk_jget(vk_jget(s[k].doc[INFO], "kernel"), "release"), "?");
		if (!s[0].nbench || !s[1].nbench)
			continue;
		snprintf(file[k], sizeof(file[k]), "%s/%s.json", dir, k ? "b" : "a");
		if (write_bench(&s[k], file[k])) {
			fprintf(stderr, "%s: cannot write %s: %s\n", cmd, file[k], strerror(errno));
			return VK_EXIT_USAGE;
		}
		ab.bench[k] = file[k];
	}
	ab.diffs = all;
	ab.ndiffs = ds.n;
	vk_report_ab(stdout, &ab);
	if (!ab.emulated && ab.bench[0]) {
		printf("\n");
		status = compare(file[0], file[1]);
	}
	return worse && status == VK_EXIT_OK ? VK_EXIT_FAIL : status;
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
