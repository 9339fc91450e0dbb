/* SPDX-License-Identifier: MIT */
/*
 * Bench files, read and validated (read.c), the runs of a side merged
 * into one series per API and path (side.c), and two sides compared row
 * by row (rows.c): for compare's files and for vm's A/B boots. Nothing
 * here prints: what went wrong is said in a struct vk_bf_err, which the
 * command prints after its name.
 */
#ifndef VK_BENCHFILE_H
#define VK_BENCHFILE_H

#include <limits.h>
#include <stddef.h>

#include "core/base/json_read.h"
#include "core/benchfile/model.h"

#define VK_COMPARE_MAX_RUNS 64	/* files a side */

/* Why a file or a side was refused: "a.json: results[3]: ...". */
struct vk_bf_err {
	char msg[PATH_MAX + 1536];
};

struct vk_bench_file {
	const char *name;
	struct vk_jval *doc;
	const struct vk_jval *env;	/* where its kernel, clocksource and options are */
	const struct vk_jval *machine;	/* where its governor and warnings are */
	struct vk_series *s;	/* one per element of "results" */
	size_t n;
	int cold;		/* --cold: samples are single calls */
	size_t random_len;	/* getrandom's bytes a call */
	size_t nsamples;	/* in its sample arrays */
	size_t budget;		/* samples its side's earlier files left it */
};

/*
 * A bench file's text, called name in messages, into f, whose budget
 * bounds its samples: 0, or -1 with why in e. Free f with
 * vk_bench_file_free() either way.
 */
int vk_bench_file_read(const char *name, const char *text, size_t len, struct vk_bench_file *f,
		       struct vk_bf_err *e);
/* The same from the file at path, refused unless regular or above 64 MiB. */
int vk_bench_file_load(const char *path, struct vk_bench_file *f, struct vk_bf_err *e);
void vk_bench_file_free(struct vk_bench_file *f);

/*
 * What a vdsokit-bench/2 document says of its run (the envelope, the
 * machine's state, the options, the timer) into rep, whose strings then
 * point into doc.
 */
void vk_bench_file_run(const struct vk_jval *doc, struct vk_bench_report *rep,
		       struct vk_timer *timer);

/*
 * One side of a comparison: its runs, and their series merged, one per
 * API and path with the processes of every run that measured it, in the
 * order they first appear.
 */
struct vk_compare_runs {
	struct vk_bench_file *f;
	size_t nf;
	struct vk_series *s;
	size_t n;
	char *names;		/* "a.json, b.json" */
};

/* Room for cap runs; 0, or -1 with why in e. */
int vk_compare_runs_open(struct vk_compare_runs *r, size_t cap, struct vk_bf_err *e);
/*
 * One more run, from the file at path or from text called name: 0, or -1
 * with why in e. Either way it counts among r's runs, to be freed.
 */
int vk_compare_runs_load(struct vk_compare_runs *r, const char *path, struct vk_bf_err *e);
int vk_compare_runs_parse(struct vk_compare_runs *r, const char *name, const char *text,
			  size_t len, struct vk_bf_err *e);
/*
 * Whether the files a[0..na) and b[0..nb) measured getrandom with one
 * length: 0, or -1 with why in e, naming a[0] and a file that differs.
 */
int vk_compare_same_length(const struct vk_bench_file *a, size_t na,
			   const struct vk_bench_file *b, size_t nb, struct vk_bf_err *e);
/* The runs read into r->s (all of one getrandom length); 0, or -1 with why in e. */
int vk_compare_runs_merge(struct vk_compare_runs *r, struct vk_bf_err *e);
/* Open, load each of the n files and merge. */
int vk_compare_read_runs(char *const *paths, size_t n, struct vk_compare_runs *r,
			 struct vk_bf_err *e);
void vk_compare_free_runs(struct vk_compare_runs *r);

/*
 * The merged side as one bench file's report: the first run's
 * environment, the merged rows (each with every run's processes) and
 * each reference over every run's processes, their median the side's.
 * 0, or -1 with why in e (a row whose processes' samples are not its
 * samples_ns); free with vk_compare_runs_report_free() either way.
 */
int vk_compare_runs_report(const struct vk_compare_runs *r, struct vk_bench_report *rep,
			   struct vk_timer *timer, struct vk_bf_err *e);
void vk_compare_runs_report_free(struct vk_bench_report *rep);

/* Two runs that differ in what should match for them to be comparable. */
struct vk_bf_mismatch {
	const char *what;	/* "kernels", "machines", "CPU models" */
	const char *x, *y;	/* each run's */
	const struct vk_bench_file *a, *b;
};

/*
 * rep's environments (the first run of each side) and references (the
 * median over every process of a side); say() is told of each run that
 * differs from its side's first, and of the sides' first runs if they
 * differ: a different machine is worth knowing, not a reason to refuse.
 */
void vk_compare_runs_context(struct vk_compare_report *rep, const struct vk_compare_runs *a,
			     const struct vk_compare_runs *b,
			     void (*say)(const struct vk_bf_mismatch *m, void *ctx), void *ctx);

/* api on path's series among n, or NULL: the one lookup by (api, path). */
const struct vk_series *vk_series_find(const struct vk_series *s, size_t n, const char *api,
				       const char *path);

/*
 * A row into rows (room for nold) for each API and path with samples on
 * both sides, in old's order, judged; rep's counts and geometric mean
 * from them. The number of rows; 0 leaves nothing to report.
 */
size_t vk_compare_build_rows(struct vk_compare_report *rep, struct vk_compare_row *rows,
			     const struct vk_series *old, size_t nold,
			     const struct vk_series *new, size_t nnew);

/*
 * The same into *rows, malloc()ed: 0, or -1 with why in e where there is
 * no row to report, none compared and none whose calls failed.
 */
int vk_compare_rows(struct vk_compare_report *rep, struct vk_compare_row **rows,
		    const struct vk_series *old, size_t nold, const struct vk_series *new,
		    size_t nnew, struct vk_bf_err *e);

/* compare's files: both sides read, merged and compared, and what rep points to. */
struct vk_compare_files {
	struct vk_compare_report *rep;
	struct vk_compare_runs a, b;
	struct vk_compare_row *rows;
	struct vk_compare_failed *failed;
};

/*
 * paths[0..nold) against paths[nold..nold + nnew) into d->rep, say()
 * told of runs that differ as vk_compare_runs_context() tells it: 0, or
 * -1 with why in e. Free d with vk_compare_files_free() either way.
 */
int vk_compare_files_read(char *const *paths, int nold, int nnew, struct vk_compare_files *d,
			  void (*say)(const struct vk_bf_mismatch *m, void *ctx), void *ctx,
			  struct vk_bf_err *e);
void vk_compare_files_free(struct vk_compare_files *d);

/*
 * The series of either side whose calls failed, as rows into failed
 * (room for nold + nnew), which rep then holds: no figure, no verdict.
 */
void vk_compare_failed_rows(struct vk_compare_report *rep, struct vk_compare_failed *failed,
			    const struct vk_series *old, size_t nold, const struct vk_series *new,
			    size_t nnew);

/*
 * Side by side: a copy's ratio to the old side's copy taken next to it,
 * the median over the rounds of each sample's ratio to the old one; NAN
 * where no round has both.
 */
double vk_compare_pair_ratio(const double *old, int nold, const double *new, int nnew);

#endif /* VK_BENCHFILE_H */
