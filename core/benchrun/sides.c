// SPDX-License-Identifier: MIT
/*
 * compare --impl: two sides measured in turn in this process, where
 * run-to-run drift cancels, each case in a child that may crash or hang,
 * into compare's rows.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/isolate.h"
#include "core/base/safe.h"
#include "core/benchfile/benchfile.h"
#include "core/benchrun/benchrun.h"

#define MAX_COPIES VK_SIDES_MAX_COPIES
#define BLAME_TIMEOUT 5.0

/*
 * The sides, each library loaded p->copies times (the first from its
 * path, the others from copies in memory) in each child that measures,
 * old and new in turn: a copy's addresses and pages move its figure by a
 * percent or so for as long as it is loaded, and only several copies show
 * how much. Here each copy is only probed: compare never runs its code.
 */
struct sides {
	struct vk_callset cs[2][MAX_COPIES];	/* [library][copy] */
	int fd[2][MAX_COPIES];
	char name[2][MAX_COPIES][32];	/* a copy's path, loaded from in each child */
	int opened[2];			/* copies set up, whose fds to close */
	struct vk_bench_side side[2 * MAX_COPIES];
};

/* One run of vk_sides_measure: what it reads, says and fills. */
struct run {
	const struct vk_sides_plan *p;
	const struct vk_bench_say *say;
	struct vk_sides_doc *d;
	struct vk_timer timer;
	struct sides sd;
};

static void note(const struct run *r, const char *line)
{
	if (r->say->note)
		r->say->note(r->say->ctx, line);
}

static void close_sides(struct sides *sd)
{
	for (int l = 0; l < 2; l++) {
		for (int j = 0; j < sd->opened[l]; j++) {
			if (sd->fd[l][j] >= 0)
				close(sd->fd[l][j]);
		}
	}
}

static int load_copies(const struct vk_sides_plan *p, const struct vk_image *im,
		       struct sides *sd, int l, char *err, size_t len)
{
	char *name, why[256];

	for (int j = 0; j < p->copies; j++) {
		name = sd->name[l][j];
		sd->fd[l][j] = j ? vk_impl_copy(p->impl[l], name, sizeof(sd->name[l][j])) : -1;
		if (j && sd->fd[l][j] < 0) {
			snprintf(err, len, "--impl %s: cannot copy it: %s", vk_safe(p->impl[l]),
				 strerror(errno));
			return -1;
		}
		if (vk_callset_init(&sd->cs[l][j], im, j ? name : p->impl[l], why, sizeof(why))) {
			snprintf(err, len, "%s", vk_safe(why));
			if (j)
				close(sd->fd[l][j]);
			return -1;
		}
		sd->opened[l]++;
	}
	return 0;
}

/* The kernel's vDSO and one library, or two libraries. */
static int open_sides(struct run *r, char *err, size_t len)
{
	const struct vk_sides_plan *p = r->p;
	struct sides *sd = &r->sd;
	struct vk_image im;
	int have_vdso = vk_image_open_live(&im) == 0;

	for (int l = 0; l < p->nimpl; l++) {
		if (load_copies(p, have_vdso ? &im : NULL, sd, l, err, len))
			return -1;
	}
	for (int j = 0; j < p->copies; j++) {
		sd->side[2 * j] = (struct vk_bench_side){
			&sd->cs[0][j], p->nimpl == 2 ? VK_PATH_IMPL : VK_PATH_VDSO
		};
		sd->side[2 * j + 1] = (struct vk_bench_side){ &sd->cs[p->nimpl - 1][j], VK_PATH_IMPL };
	}
	r->d->rep->old = p->nimpl == 2 ? p->impl[0] : "the kernel's vDSO";
	r->d->rep->new = p->impl[p->nimpl - 1];
	return 0;
}

/* Side k's first copy whose calls failed, or NULL. */
static const struct vk_bench_result *failed_copy(const struct vk_bench_result *res, int k,
						 int copies)
{
	for (int j = 0; j < copies; j++) {
		if (res[2 * j + k].failed)
			return &res[2 * j + k];
	}
	return NULL;
}

/* A failed row, its room in d->failed. */
static struct vk_compare_failed *add_failed(struct vk_sides_doc *d, const char *api,
					    const char *path, const char *side)
{
	struct vk_compare_failed *f = &d->failed[d->rep->nfailed++];

	*f = (struct vk_compare_failed){ .api = api, .path = path, .side = side };
	return f;
}

/*
 * A side whose calls failed has no series: its time is the failure's.
 * The row says which call failed, how and how often, said too.
 */
static void note_failed(struct run *r, const char *api, const char *path,
			const struct vk_bench_result *res)
{
	char line[300];

	for (int k = 0; k < 2; k++) {
		const struct vk_bench_result *bad = failed_copy(res, k, r->p->copies);
		struct vk_compare_failed *f;

		if (!bad)
			continue;
		f = add_failed(r->d, api, path, k ? "new" : "old");
		snprintf(f->why, sizeof(f->why), "%s", bad->why);
		snprintf(line, sizeof(line), "%s on the %s side: %s; no verdict", api, f->side,
			 f->why);
		note(r, line);
	}
}

/*
 * Side k's copies (res[k], res[k + 2], ...) as one series, a group a copy;
 * the new side's also with each copy's ratio to the old side's.
 */
static int fill_series(struct vk_series *s, const char *api, const char *path,
		       const struct vk_bench_result *res, int k, int copies)
{
	size_t n = 0;

	*s = (struct vk_series){ .api = api, .path = path };
	if (res[k].skipped || failed_copy(res, k, copies))
		return 0;
	s->ns = calloc(copies * res[k].n, sizeof(double));
	s->group_med = calloc(copies, sizeof(double));
	s->pair = k ? calloc(copies, sizeof(double)) : NULL;
	if (!s->ns || !s->group_med || (k && !s->pair))
		return -1;
	for (int j = 0; j < copies; j++) {
		const struct vk_bench_result *r = &res[2 * j + k];

		memcpy(s->ns + n, r->samples, r->n * sizeof(double));
		n += r->n;
		s->group_med[j] = r->median;
		if (k)
			s->pair[j] = vk_compare_pair_ratio(res[2 * j].samples, res[2 * j].n,
							   r->samples, r->n);
	}
	s->n = n;
	s->ngroups = copies;
	return 0;
}

/*
 * The libraries are user code, which may crash, exit or hang: each case
 * is measured in a child, which loads them and sends its results back.
 * The child shares this process's addresses, so a result's skip reason,
 * a static string, is still one here.
 */
struct measure {
	struct vk_bench *b;
	const struct vk_bench_case *bc;
	const struct vk_bench_side *side;
	int nsides;
	struct vk_bench_result *res;
};

static void measure_child(void *ctx, int fd)
{
	static struct vk_callset loaded[2 * MAX_COPIES];
	struct vk_bench_side side[2 * MAX_COPIES];
	struct measure *m = ctx;

	for (int k = 0; k < m->nsides; k++) {
		side[k] = m->side[k];
		side[k].cs = vk_callset_child(side[k].cs, VK_PATH_BIT(side[k].path), &loaded[k]);
	}
	vk_bench_run_sides(m->b, m->bc, side, m->nsides, m->res);
	vk_write_all(fd, m->res, m->nsides * sizeof(*m->res));
}

/* 0 with m->res filled, or -1 and how the child died in why. */
static int measure_isolated(struct measure *m, double timeout, char *why, size_t len)
{
	size_t want = m->nsides * sizeof(*m->res);
	struct vk_isolated out;
	int ok;

	if (vk_isolate(measure_child, m, timeout, &out)) {
		snprintf(why, len, "could not be run: fork failed: %s", strerror(errno));
		return -1;
	}
	ok = out.len == want && out.exited && !out.exit_status;
	if (ok)
		memcpy(m->res, out.data, want);
	else
		vk_isolated_describe(&out, timeout, why, len);
	vk_isolated_free(&out);
	return ok ? 0 : -1;
}

/* Side k's name: "--impl LIB", or the kernel's vDSO. */
static void side_name(char *buf, size_t len, const struct vk_sides_plan *p, int k)
{
	if (!k && p->nimpl == 1)
		snprintf(buf, len, "the kernel's vDSO");
	else
		snprintf(buf, len, "--impl %s", vk_safe(p->impl[k ? p->nimpl - 1 : 0]));
}

/* "was killed by ...", "exited with status 3": a child's end after "it". */
static const char *was(const char *why)
{
	return strncmp(why, "killed", 6) ? "" : "was ";
}

/*
 * A case ended the child that measured both sides: each side's first copy
 * is measured alone, briefly, to name the one that dies; the sides that
 * did, bit k for side k, 0 if neither did.
 */
static int blame(struct run *r, const struct vk_bench_case *bc)
{
	struct vk_bench b = { .timer = &r->timer, .seconds = 0.01, .samples = 2 };
	struct vk_bench_result res;
	char why[64], name[300], line[512];
	int named = 0;

	for (int k = 0; k < 2; k++) {
		struct measure m = { &b, bc, &r->sd.side[k], 1, &res };

		if (!measure_isolated(&m, vk_watchdog_hook("VDSOKIT_COMPARE_TIMEOUT", BLAME_TIMEOUT),
				      why, sizeof(why)))
			continue;
		side_name(name, sizeof(name), r->p, k);
		snprintf(line, sizeof(line), "%s: measuring %s, it %s%s", name, bc->api, was(why),
			 why);
		note(r, line);
		named |= 1 << k;
	}
	return named;
}

/*
 * The case's results on every side: 0; or -1 when the child that measured
 * them died, said and kept as the case's failed row, on the side that
 * dies alone ("both" if neither or each does).
 */
static int measure_case(struct run *r, struct vk_bench *b, const struct vk_bench_case *bc,
			const char *path, struct vk_bench_result *res)
{
	static const char *const sides[4] = { "both", "old", "new", "both" };
	struct measure m = { b, bc, r->sd.side, 2 * r->p->copies, res };
	/* Far more than the sides' budget, as a call that never returns
	 * would; shorter under the test hook VDSOKIT_COMPARE_TIMEOUT. */
	double timeout = vk_watchdog_hook("VDSOKIT_COMPARE_TIMEOUT", 30 + 8 * r->p->m.seconds);
	struct vk_compare_failed *f;
	char why[64], line[300];
	int died;

	if (!measure_isolated(&m, timeout, why, sizeof(why)))
		return 0;
	snprintf(line, sizeof(line), "measuring %s on both sides, the child %s%s", bc->api,
		 was(why), why);
	note(r, line);
	died = blame(r, bc);
	if (!died)
		note(r, "neither side died when measured alone");
	f = add_failed(r->d, bc->api, path, sides[died]);
	snprintf(f->why, sizeof(f->why), "the child that measured it %s%s", was(why), why);
	return -1;
}

/* Measure each case on both sides; their results become the two series. */
static enum vk_measure_end measure_cases(struct run *r, const struct vk_bench_case *cases,
					 struct vk_bench_result *res, char *err, size_t len)
{
	const struct vk_sides_plan *p = r->p;
	struct vk_sides_doc *d = r->d;
	size_t n = d->ncases;
	/* Each copy its share of the side's budget and samples. */
	struct vk_bench b = { .timer = &r->timer, .seconds = p->m.seconds / p->copies,
			      .samples = p->m.samples / p->copies };
	/* One name for the rows, whichever paths the sides are. */
	const char *path = p->nimpl == 2 ? "impl" : "vdso:impl";

	for (size_t i = 0; i < n; i++) {
		if (r->say->progress)
			r->say->progress(r->say->ctx, i, n, cases[i].api);
		/* A case that crashed is a row of its own, with no series. */
		if (measure_case(r, &b, &cases[i], path, res)) {
			d->ser[i] = (struct vk_series){ .api = cases[i].api, .path = path };
			d->ser[n + i] = d->ser[i];
			continue;
		}
		note_failed(r, cases[i].api, path, res);
		if (fill_series(&d->ser[i], cases[i].api, path, res, 0, p->copies) ||
		    fill_series(&d->ser[n + i], cases[i].api, path, res, 1, p->copies)) {
			snprintf(err, len, "%s", strerror(ENOMEM));
			return VK_MEASURE_REFUSED;
		}
	}
	return VK_MEASURED;
}

enum vk_measure_end vk_sides_measure(struct vk_sides_plan *p, const struct vk_bench_case *cases,
				     size_t ncases, const struct vk_bench_say *say,
				     struct vk_sides_doc *d, char *err, size_t len)
{
	struct run *r = calloc(1, sizeof(*r));
	struct vk_bench_result *res = calloc(2 * p->copies, sizeof(*res));
	enum vk_measure_end status = VK_MEASURE_REFUSED;
	struct vk_bf_err e;

	d->rep->interleaved = 1;
	d->rep->copies = p->copies;
	d->ncases = ncases;
	d->ser = calloc(2 * ncases, sizeof(*d->ser));
	d->failed = calloc(2 * ncases, sizeof(*d->failed));
	d->rep->failed = d->failed;
	snprintf(err, len, "%s", strerror(ENOMEM));
	if (r && res && d->ser && d->failed) {
		*r = (struct run){ .p = p, .say = say, .d = d };
		status = vk_bench_setup(&p->m.cpu, &r->timer, err, len);
	}
	if (!status && open_sides(r, err, len))
		status = VK_MEASURE_REFUSED;
	if (!status)
		status = measure_cases(r, cases, res, err, len);
	if (say->progress)
		say->progress(say->ctx, ncases, ncases, NULL);
	if (r)
		close_sides(&r->sd);
	free(r);
	free(res);
	if (!status && vk_compare_rows(d->rep, &d->rows, d->ser, ncases, d->ser + ncases, ncases,
				       &e)) {
		snprintf(err, len, "%s", e.msg);
		status = VK_MEASURE_NO_ROWS;
	}
	return status;
}

void vk_sides_free(struct vk_sides_doc *d)
{
	free(d->failed);
	free(d->rows);
	for (size_t i = 0; d->ser && i < 2 * d->ncases; i++) {
		free(d->ser[i].ns);
		free(d->ser[i].group_med);
		free(d->ser[i].pair);
	}
	free(d->ser);
}
