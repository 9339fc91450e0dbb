// SPDX-License-Identifier: MIT
/*
 * vdsokit vm --kernel A --kernel B, the before and after of a patch: each
 * kernel boots in turn (A B A B ...); its first boot runs info, fallback,
 * verify and bench, the later ones bench alone. Each boot's reports are
 * parsed here, and its bench report read as compare reads a file, for
 * what differs in kind (vm_ab.c) and for compare's table of the speed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/array.h"
#include "core/benchfile/keys.h"
#include "core/vm/vm_ab_boot.h"

#define MAX_WORDS 96

/* The guest commands' exit statuses A/B reads: vdsokit's own. */
enum { GUEST_OK = 0, GUEST_FAIL = 1, GUEST_SKIP = 4 };

static const char *const label[2] = { "A", "B" };
static const char *const doc_name[VK_AB_NDOCS] = { "info", "fallback", "verify", "bench" };

/* The guest's words: info, fallback, verify and bench, or bench alone. */
static int words(char *const *apis, int napis, int first, char **w)
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
	for (int i = 0; i < napis && n < MAX_WORDS; i++)
		w[n++] = apis[i];
	return n;
}

int vk_ab_open(struct vk_ab_boots *ab, int k, const char *kernel, const struct vk_vm_setup *setup,
	       char *const *apis, int napis, char *err, size_t len)
{
	struct vk_ab_side *s = &ab->s[k];
	char *w[MAX_WORDS];
	struct vk_bf_err e;

	s->kernel = kernel;
	s->bench = calloc(ab->rounds, sizeof(*s->bench));
	if (!s->bench || vk_compare_runs_open(&s->runs, ab->rounds, &e)) {
		snprintf(err, len, "%s", strerror(ENOMEM));
		return -1;
	}
	for (int first = 1; first >= 0; first--) {
		struct vk_vm *vm = first ? &s->first : &s->later;

		if (vk_vm_prepare(vm, kernel, setup, w, words(apis, napis, first, w), s->qemu,
				  s->initrd[first], PATH_MAX, err, len))
			return -1;
	}
	return 0;
}

void vk_ab_close(struct vk_ab_boots *ab)
{
	for (int k = 0; k < 2; k++) {
		for (int d = 0; d < VK_AB_BENCH; d++)
			vk_jfree(ab->s[k].doc[d]);
		vk_compare_free_runs(&ab->s[k].runs);
		free(ab->s[k].bench);
	}
}

void vk_ab_kvm(struct vk_ab_boots *ab, int kvm)
{
	for (int k = 0; k < 2; k++)
		ab->s[k].first.kvm = ab->s[k].later.kvm = kvm;
}

/* A boot's bench report, refused as compare refuses a file. */
static int bench_report(struct vk_ab_side *s, const char *text, size_t n, int k, char *err,
			size_t len)
{
	struct vk_bf_err e;

	if (vk_compare_runs_parse(&s->runs, "bench's report", text, n, &e)) {
		snprintf(err, len, "on kernel %s, %s", label[k], e.msg);
		return -1;
	}
	s->bench[s->nbench++] = s->runs.f[s->runs.nf - 1].doc;
	return 0;
}

/* Command i of a boot's r, its report kept: VK_AB_DONE, or why not. */
static enum vk_ab_stop command(struct vk_ab_boots *ab, int k, int first, int i,
			       const struct vk_vm_result *r, char *err, size_t len)
{
	struct vk_ab_side *s = &ab->s[k];
	int d = first ? i : VK_AB_BENCH, st = r->status[i];
	struct vk_jerr jerr;
	struct vk_jval *doc;

	/* A bench that cannot time calls here says why on stderr. */
	if (d == VK_AB_BENCH && st == GUEST_SKIP)
		return VK_AB_DONE;
	doc = r->out[i] ? vk_jparse(r->out[i], r->outlen[i], &jerr) : NULL;
	if (!doc || (st != GUEST_OK && st != GUEST_FAIL)) {
		snprintf(err, len, "on kernel %s, %s exited %d%s", label[k], doc_name[d], st,
			 doc ? "" : " with no JSON report");
		vk_jfree(doc);
		ab->status = st;
		return st == GUEST_FAIL || st == GUEST_OK ? VK_AB_NO_REPORT : VK_AB_COMMAND;
	}
	if (d != VK_AB_BENCH) {
		s->doc[d] = doc;
		return VK_AB_DONE;
	}
	/* Read again, as compare reads a file: checked, its samples taken out. */
	vk_jfree(doc);
	return bench_report(s, r->out[i], r->outlen[i], k, err, len) ? VK_AB_NO_REPORT :
								       VK_AB_DONE;
}

/* One boot of side k: its reports kept, or why not. */
static enum vk_ab_stop boot(struct vk_ab_boots *ab, int k, int first, char *err, size_t len)
{
	struct vk_ab_side *s = &ab->s[k];
	enum vk_ab_stop stop = VK_AB_DONE;

	ab->run.ncmds = first ? VK_AB_NDOCS : 1;
	ab->run.log[0] = '\0';
	if (vk_vm_run(&ab->run, first ? &s->first : &s->later) != VK_VM_END_RAN) {
		snprintf(err, len, "kernel %s (%s) gave no result", label[k], s->kernel);
		stop = VK_AB_NO_BOOT;
	}
	for (int i = 0; stop == VK_AB_DONE && i < ab->run.ncmds; i++)
		stop = command(ab, k, first, i, &ab->run.r, err, len);
	vk_vm_result_free(&ab->run.r);
	return stop;
}

enum vk_ab_stop vk_ab_boot(struct vk_ab_boots *ab, char *err, size_t len)
{
	for (unsigned long round = 0; round < ab->rounds; round++) {
		for (int k = 0; k < 2; k++) {
			enum vk_ab_stop stop = boot(ab, k, round == 0, err, len);

			if (stop != VK_AB_DONE)
				return stop;
			/* Once KVM has failed, every boot is under TCG. */
			if (!ab->s[k].first.kvm || !ab->s[k].later.kvm)
				vk_ab_kvm(ab, 0);
		}
	}
	return VK_AB_DONE;
}

void vk_ab_found(const struct vk_ab_boots *ab, struct vk_ab_diffs *ds, struct vk_ab *m)
{
	struct vk_ab_docs d[2];

	for (int k = 0; k < 2; k++) {
		const struct vk_ab_side *s = &ab->s[k];

		d[k] = (struct vk_ab_docs){ s->doc[VK_AB_INFO], s->doc[VK_AB_FALLBACK],
					    s->doc[VK_AB_VERIFY], s->bench, s->nbench };
		m->kernel[k] = s->kernel;
		m->release[k] = vk_ab_str(vk_jget(vk_jget(vk_jget(s->doc[VK_AB_INFO],
								    VK_DOC_ENVIRONMENT), VK_DOC_KERNEL),
						      VK_DOC_RELEASE), "?");
		m->bench[k] = NULL;
	}
	vk_ab_diff(ds, &d[0], &d[1]);
	m->rounds = ab->rounds;
	m->emulated = !ab->s[0].first.kvm;
	m->arch = ab->s[0].first.arch->name;
	m->diffs = ds->d;
	m->ndiffs = ds->n;
	m->total = ds->total;
	m->worse = ds->worse;
	m->better = ds->better;
}

int vk_ab_bench(struct vk_ab_boots *ab, int k, struct vk_bench_report *rep, char *err,
		size_t len)
{
	struct vk_ab_side *s = &ab->s[k];
	struct vk_bf_err e;

	memset(rep, 0, sizeof(*rep));
	if (vk_compare_runs_merge(&s->runs, &e) ||
	    vk_compare_runs_report(&s->runs, rep, &s->timer, &e)) {
		snprintf(err, len, "%s", e.msg);
		return -1;
	}
	return 0;
}

int vk_ab_same_arch(const char *const kernel[2], char *err, size_t len)
{
	const struct vk_vm_arch *a[2];

	for (int k = 0; k < 2; k++) {
		if (vk_vm_kernel_arch(kernel[k], &a[k], err, len))
			return -1;
	}
	if (a[0] == a[1])
		return 0;
	snprintf(err, len, "A is a %s kernel and B a %s one: compare kernels of one arch", a[0]->name,
		 a[1]->name);
	return -1;
}

int vk_ab_dir(const char *output, char *dir, size_t len, char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");

	/* --output's was made, and found writable, before the boots. */
	if (output) {
		snprintf(dir, len, "%s", output);
		return 0;
	}
	snprintf(dir, len, "%s/vdsokit-vm-ab-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		snprintf(err, errlen, "cannot make a directory %s: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}
