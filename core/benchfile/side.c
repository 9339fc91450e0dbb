// SPDX-License-Identifier: MIT
/*
 * A side of a comparison: the runs given for it, each read into series,
 * one per API and path, merged into one, each series holding the
 * processes of every run. Several runs a side average out what moves a
 * whole run (the machine's state at its moment, a boot's layout), which
 * the processes of one run share and so cannot show.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/array.h"
#include "core/base/safe.h"
#include "core/bench/stats.h"
#include "core/benchfile/benchfile.h"
#include "core/benchfile/keys.h"
#include "core/benchfile/limits.h"

static int nomem(struct vk_bf_err *e)
{
	snprintf(e->msg, sizeof(e->msg), "%s", strerror(ENOMEM));
	return -1;
}

/* What should match for the two runs to be comparable. */
static const struct {
	const char *obj, *key, *what;
} same[] = {
	{ VK_DOC_KERNEL, VK_DOC_RELEASE, "kernels" },
	{ VK_DOC_KERNEL, VK_DOC_MACHINE, "machines" },
	{ NULL, VK_BF_CPU_MODEL, "CPU models" },
};

/* A setting of f's environment; obj: within that object of it, "": of the machine's state. */
static const char *field(const struct vk_bench_file *f, const char *obj, const char *key)
{
	const struct vk_jval *in = !obj ? f->env : *obj ? vk_jget(f->env, obj) : f->machine;

	return vk_jstr(vk_jget(in, key));
}

static void mismatch(const struct vk_bench_file *a, const struct vk_bench_file *b,
		     void (*say)(const struct vk_bf_mismatch *m, void *ctx), void *ctx)
{
	for (size_t i = 0; i < ARRAY_SIZE(same); i++) {
		const char *x = field(a, same[i].obj, same[i].key);
		const char *y = field(b, same[i].obj, same[i].key);

		if (x && y && strcmp(x, y))
			say(&(const struct vk_bf_mismatch){ same[i].what, x, y, a, b }, ctx);
	}
}

/* The settings a reader of the table needs to trust it, old and new. */
static void env_fields(struct vk_compare_report *rep, const struct vk_bench_file *a,
		       const struct vk_bench_file *b)
{
	static const struct {
		const char *what, *name, *obj, *key;
	} f[VK_ENV_FIELDS] = {
		{ "kernel", "kernel", VK_DOC_KERNEL, VK_DOC_RELEASE },
		{ "clocksource", "clocksource", NULL, VK_DOC_CLOCKSOURCE },
		{ "CPU model", "cpu_model", NULL, VK_BF_CPU_MODEL },
		{ "governor", "governor", "", VK_BF_GOVERNOR },
	};

	for (int i = 0; i < VK_ENV_FIELDS; i++) {
		const char *x = field(a, f[i].obj, f[i].key);
		const char *y = field(b, f[i].obj, f[i].key);

		rep->env[i] = (struct vk_env_field){ f[i].what, f[i].name, x ? x : "unknown",
						     y ? y : "unknown" };
	}
	rep->nenv = VK_ENV_FIELDS;
}

/* A file's reference figure, or NAN. */
static double ref_of(const struct vk_bench_file *f, const char *key)
{
	const struct vk_jval *v = vk_jget(vk_jget(f->doc, VK_BF_REFERENCE), key);

	return v && vk_jnum(v) > 0 ? vk_jnum(v) : NAN;
}

/*
 * A side's reference: one run's figure, or the median of every process of
 * several runs (a run without its processes' figures counts as one); and
 * in *spread how unsteady it was over those processes.
 */
static double side_ref(const struct vk_compare_runs *r, enum vk_bench_ref_kind kind,
		       double *spread)
{
	const char *figure = vk_bench_ref_keys[kind].run, *per_process = vk_bench_ref_keys[kind].each;
	double *x, med = NAN;
	size_t n = 0, cap = 0;
	int unknown = 0;

	*spread = 0;
	for (size_t k = 0; k < r->nf; k++)
		cap += vk_jarray_len(vk_jget(vk_jget(r->f[k].doc, VK_BF_REFERENCE), per_process)) + 1;
	x = calloc(cap, sizeof(*x));
	for (size_t k = 0; x && k < r->nf; k++) {
		const struct vk_jval *p = vk_jget(vk_jget(r->f[k].doc, VK_BF_REFERENCE), per_process);
		size_t had = n;

		for (size_t i = 0; i < vk_jarray_len(p); i++) {
			double v = vk_jnum(vk_jarray_at(p, i));

			if (v > 0)
				x[n++] = v;
		}
		if (n == had)
			x[n++] = ref_of(&r->f[k], figure);
		/* A run without a reference leaves the side without one. */
		unknown |= !(x[n - 1] > 0);
	}
	if (x && n && !unknown) {
		med = r->nf == 1 ? ref_of(&r->f[0], figure) : vk_median(x, n);
		*spread = vk_compare_spread(x, n);
	}
	free(x);
	return med;
}

/*
 * The reference loops' ratios between the sides: how much the machine's
 * own speed moved, which no change to the vDSO can do; and how unsteady
 * each was within a side, the wider side's.
 */
static void reference(struct vk_compare_report *rep, const struct vk_compare_runs *a,
		      const struct vk_compare_runs *b)
{
	struct vk_compare_machine *m = &rep->machine;
	double sa, sb;

	rep->ref_old = side_ref(a, VK_REF_CPU, &sa);
	rep->ref_new = side_ref(b, VK_REF_CPU, &sb);
	m->cpu_spread = fmax(sa, sb);
	rep->loads_old = side_ref(a, VK_REF_LOADS, &sa);
	rep->loads_new = side_ref(b, VK_REF_LOADS, &sb);
	m->loads_spread = fmax(sa, sb);
	rep->sys_old = side_ref(a, VK_REF_SYS, &sa);
	rep->sys_new = side_ref(b, VK_REF_SYS, &sb);
	m->sys_spread = fmax(sa, sb);
	m->one_run = a->nf == 1 || b->nf == 1;
	m->cpu_ratio = rep->ref_new / rep->ref_old * 100;
	m->loads_ratio = rep->loads_new / rep->loads_old * 100;
	m->loads_ns = isfinite(m->loads_ratio) ? rep->loads_old : 0;
	m->sys_ratio = rep->sys_new / rep->sys_old * 100;
	m->sys_ns = isfinite(m->sys_ratio) ? rep->sys_old : 0;
	rep->machine_moved = vk_compare_moved(m->cpu_ratio) > rep->threshold;
	rep->loads_moved = vk_compare_moved(m->loads_ratio) > rep->threshold;
	rep->syscall_moved = vk_compare_moved(m->sys_ratio) > rep->threshold;
}

void vk_compare_runs_context(struct vk_compare_report *rep, const struct vk_compare_runs *a,
			     const struct vk_compare_runs *b,
			     void (*say)(const struct vk_bf_mismatch *m, void *ctx), void *ctx)
{
	/* Within a side too: a run of another kernel is likely a slip. */
	for (size_t k = 1; k < a->nf; k++)
		mismatch(&a->f[0], &a->f[k], say, ctx);
	for (size_t k = 1; k < b->nf; k++)
		mismatch(&b->f[0], &b->f[k], say, ctx);
	mismatch(&a->f[0], &b->f[0], say, ctx);
	env_fields(rep, &a->f[0], &b->f[0]);
	reference(rep, a, b);
}

/* Append from's samples and groups to to's. */
static int append(struct vk_series *to, const struct vk_series *from)
{
	double *ns = realloc(to->ns, (to->n + from->n) * sizeof(*ns));
	double *g;
	int *gn;

	if (!ns)
		return -1;
	to->ns = ns;
	g = realloc(to->group_med, (to->ngroups + from->ngroups) * sizeof(*g));
	if (!g)
		return -1;
	to->group_med = g;
	gn = realloc(to->group_n, (to->ngroups + from->ngroups) * sizeof(*gn));
	if (!gn)
		return -1;
	to->group_n = gn;
	memcpy(to->ns + to->n, from->ns, from->n * sizeof(*ns));
	memcpy(to->group_med + to->ngroups, from->group_med, from->ngroups * sizeof(*g));
	memcpy(to->group_n + to->ngroups, from->group_n, from->ngroups * sizeof(*gn));
	to->n += from->n;
	to->ngroups += from->ngroups;
	return 0;
}

/*
 * --threads' scaling of a side: the mean of its runs' where every run
 * measured the same number of threads, else none.
 */
static void merge_scaling(struct vk_series *to, const struct vk_series *from, int first)
{
	if (first) {
		to->threads = from->threads;
		to->scaling = from->scaling;
		to->scaling_runs = 1;
	} else if (to->threads && to->threads == from->threads) {
		to->scaling = (to->scaling * to->scaling_runs + from->scaling) / (to->scaling_runs + 1);
		to->scaling_runs++;
	} else
		to->threads = 0;
}

/* Every run's series into r->s, in the order they first appear. */
static int merge(struct vk_compare_runs *r, struct vk_bf_err *e)
{
	size_t cap = 0, groups = 0;

	for (size_t k = 0; k < r->nf; k++)
		cap += r->f[k].n;
	r->s = calloc(cap ? cap : 1, sizeof(*r->s));
	if (!r->s)
		goto nomem;
	for (size_t k = 0; k < r->nf; k++) {
		for (size_t i = 0; i < r->f[k].n; i++) {
			const struct vk_series *s = &r->f[k].s[i];
			struct vk_series *to = (struct vk_series *)vk_series_find(r->s, r->n, s->api,
										  s->path);
			int first = !to;

			if (!to) {
				to = &r->s[r->n++];
				to->api = s->api;
				to->path = s->path;
				to->skipped = s->skipped;
			}
			/* A boot whose calls failed fails the row, as a worker does. */
			if (s->failed) {
				to->failed += s->failed;
				to->skipped = s->skipped;
			}
			if (s->ns && append(to, s))
				goto nomem;
			if (s->ns)
				merge_scaling(to, s, first);
			groups += s->ngroups;
			if (to->ngroups > MAX_ROW_GROUPS || groups > MAX_SIDE_GROUPS)
				goto too_many;
		}
	}
	return 0;
too_many:
	snprintf(e->msg, sizeof(e->msg),
		 "%s: more than %d processes in a row or %lu in all: too many to compare",
		 vk_safe(r->names), MAX_ROW_GROUPS, MAX_SIDE_GROUPS);
	return -1;
nomem:
	snprintf(e->msg, sizeof(e->msg), "%s", strerror(ENOMEM));
	return -1;
}

/* "a.json, b.json": the side's name in the report. */
static int names(struct vk_compare_runs *r, struct vk_bf_err *e)
{
	size_t len = 1;

	for (size_t k = 0; k < r->nf; k++)
		len += strlen(r->f[k].name) + 2;
	r->names = malloc(len);
	if (!r->names)
		return nomem(e);
	r->names[0] = '\0';
	for (size_t k = 0; k < r->nf; k++) {
		if (k)
			strcat(r->names, ", ");
		strcat(r->names, r->f[k].name);
	}
	return 0;
}

int vk_compare_runs_open(struct vk_compare_runs *r, size_t cap, struct vk_bf_err *e)
{
	r->f = calloc(cap ? cap : 1, sizeof(*r->f));
	return r->f ? 0 : nomem(e);
}

/* The next run's room, its budget what the runs before it left of the side's samples. */
static struct vk_bench_file *next_run(struct vk_compare_runs *r)
{
	struct vk_bench_file *f = &r->f[r->nf++];
	size_t used = 0;

	for (size_t k = 0; k + 1 < r->nf; k++)
		used += r->f[k].nsamples;
	f->budget = MAX_SIDE_SAMPLES - used;
	return f;
}

int vk_compare_runs_load(struct vk_compare_runs *r, const char *path, struct vk_bf_err *e)
{
	return vk_bench_file_load(path, next_run(r), e);
}

int vk_compare_runs_parse(struct vk_compare_runs *r, const char *name, const char *text,
			  size_t len, struct vk_bf_err *e)
{
	return vk_bench_file_read(name, text, len, next_run(r), e);
}

/*
 * Whether two files are one bench run: the same run_id, or in files from
 * before it, the same samples in every row, which no two runs have.
 */
static int same_run(const struct vk_bench_file *a, const struct vk_bench_file *b)
{
	const char *x = vk_jstr(vk_jget(a->doc, VK_BF_RUN_ID));
	const char *y = vk_jstr(vk_jget(b->doc, VK_BF_RUN_ID));
	size_t measured = 0;

	if (x && y)
		return !strcmp(x, y);
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++) {
		const struct vk_series *s = &a->s[i];
		const struct vk_series *t = vk_series_find(b->s, b->n, s->api, s->path);

		if (!t || s->n != t->n || !s->ns != !t->ns ||
		    (s->ns && memcmp(s->ns, t->ns, s->n * sizeof(*s->ns))))
			return 0;
		measured += s->n > 0;
	}
	return measured > 0;
}

/*
 * A run given twice in a side would count its processes twice, and so
 * pass the verdict's minimum of processes with copies of too few.
 */
static int repeated(const struct vk_compare_runs *r, struct vk_bf_err *e)
{
	for (size_t k = 1; k < r->nf; k++) {
		for (size_t j = 0; j < k; j++) {
			if (!same_run(&r->f[j], &r->f[k]))
				continue;
			snprintf(e->msg, sizeof(e->msg),
				 "%s and %s are one bench run: its processes would count twice (give each run once)",
				 vk_safe(r->f[j].name), vk_safe(r->f[k].name));
			return -1;
		}
	}
	return 0;
}

int vk_compare_same_length(const struct vk_bench_file *a, size_t na,
			   const struct vk_bench_file *b, size_t nb, struct vk_bf_err *e)
{
	for (size_t k = 0; k < na + nb; k++) {
		const struct vk_bench_file *f = k < na ? &a[k] : &b[k - na];

		if (f->random_len == a[0].random_len)
			continue;
		snprintf(e->msg, sizeof(e->msg),
			 "%s measured getrandom with --length %zu, %s with --length %zu: "
			 "a call's cost grows with its length, so their figures cannot be compared "
			 "(bench both with the same --length)",
			 vk_safe(a[0].name), a[0].random_len, vk_safe(f->name), f->random_len);
		return -1;
	}
	return 0;
}

int vk_compare_runs_merge(struct vk_compare_runs *r, struct vk_bf_err *e)
{
	return names(r, e) || repeated(r, e) ||
	       vk_compare_same_length(r->f, r->nf, NULL, 0, e) ? -1 : merge(r, e);
}

int vk_compare_read_runs(char *const *paths, size_t n, struct vk_compare_runs *r,
			 struct vk_bf_err *e)
{
	int status = vk_compare_runs_open(r, n, e);

	for (size_t k = 0; !status && k < n; k++)
		status = vk_compare_runs_load(r, paths[k], e);
	return status ? status : vk_compare_runs_merge(r, e);
}

void vk_compare_free_runs(struct vk_compare_runs *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->s[i].ns);
		free(r->s[i].group_med);
		free(r->s[i].group_n);
	}
	free(r->s);
	for (size_t k = 0; r->f && k < r->nf; k++)
		vk_bench_file_free(&r->f[k]);
	free(r->f);
	free(r->names);
}

/* A reference figure of every run's processes, and their median as the side's. */
static int merge_reference(const struct vk_compare_runs *r, struct vk_bench_report *rep)
{
	struct vk_bench_ref *ref;
	double *x;
	size_t cap = 0;

	for (size_t k = 0; k < r->nf; k++)
		cap += vk_jarray_len(vk_jget(vk_jget(r->f[k].doc, VK_BF_REFERENCE), VK_BF_REF_CPU_EACH));
	rep->ref = ref = calloc(cap + 1, sizeof(*ref));
	x = calloc(cap + 1, sizeof(*x));
	if (!ref || !x) {
		free(x);
		return -1;
	}
	rep->nref = cap;
	for (int kind = 0; kind < VK_REF_KINDS; kind++) {
		size_t n = 0;

		for (size_t k = 0; k < r->nf; k++) {
			const struct vk_jval *p = vk_jget(vk_jget(r->f[k].doc, VK_BF_REFERENCE),
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

/* Whether s's processes hold its samples, as bench writes them: the writer walks them. */
static int whole(const struct vk_series *s)
{
	size_t n = 0;

	for (size_t g = 0; g < s->ngroups; g++)
		n += s->group_n[g];
	return n == s->n;
}

int vk_compare_runs_report(const struct vk_compare_runs *r, struct vk_bench_report *rep,
			   struct vk_timer *timer, struct vk_bf_err *e)
{
	struct vk_bench_row *rows = calloc(r->n + 1, sizeof(*rows));

	vk_bench_file_run(r->f[0].doc, rep, timer);
	rep->boots = r->nf;
	rep->rows = rows;
	rep->n = r->n;
	for (size_t i = 0; rows && i < r->n; i++) {
		const struct vk_series *s = &r->s[i];

		if (s->ns && !whole(s)) {
			snprintf(e->msg, sizeof(e->msg), "%s: %s on %s: its processes' samples are not its "
				 VK_BF_SAMPLES_NS, vk_safe(r->names), vk_safe(s->api), vk_safe(s->path));
			return -1;
		}
		/* The reader refuses a row with neither samples nor why it has none. */
		rows[i] = (struct vk_bench_row){ .api = s->api, .path = s->path,
						 .skipped = s->ns && !s->failed ? NULL : s->skipped,
						 .failed = s->failed,
						 .samples = s->ns, .n = s->n, .ngroups = s->ngroups,
						 .group_n = s->group_n };
	}
	return rows && !merge_reference(r, rep) ? 0 : nomem(e);
}

void vk_compare_runs_report_free(struct vk_bench_report *rep)
{
	free((struct vk_bench_row *)rep->rows);
	free((struct vk_bench_ref *)rep->ref);
}
