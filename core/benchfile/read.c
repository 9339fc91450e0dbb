// SPDX-License-Identifier: MIT
/*
 * A bench file read into series, one per API and path, each value checked
 * on the way: a file is anyone's bytes, and compare's statistics trust
 * every sample they get.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/file.h"
#include "core/base/safe.h"
#include "core/bench/stats.h"
#include "core/bench/timer.h"
#include "core/benchfile/benchfile.h"
#include "core/benchfile/keys.h"
#include "core/benchfile/limits.h"

/* "FILE: message" into e; returns -1. */
__attribute__((format(printf, 3, 4)))
static int bad_file(struct vk_bf_err *e, const struct vk_bench_file *f, const char *fmt, ...)
{
	int at = snprintf(e->msg, sizeof(e->msg), "%s: ", f->name);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->msg + at, sizeof(e->msg) - at, fmt, ap);
	va_end(ap);
	return -1;
}

/* The whole file, or NULL with why in e. */
static char *read_file(const char *path, size_t *len, struct vk_bf_err *e)
{
	int fd = vk_open_regular(path, e->msg, sizeof(e->msg));
	FILE *f = fd < 0 ? NULL : fdopen(fd, "rb");
	const char *why = f ? NULL : strerror(errno);
	size_t cap = 0, got = 1;
	char *buf = NULL, *grown;

	*len = 0;
	if (fd < 0)
		return NULL;
	if (!f)
		close(fd);
	while (!why && got) {
		if (*len == cap) {
			cap = cap ? 2 * cap : 1 << 16;
			grown = cap <= MAX_FILE ? realloc(buf, cap) : NULL;
			if (!grown) {
				why = cap > MAX_FILE ? "larger than 64 MiB" : strerror(ENOMEM);
				break;
			}
			buf = grown;
		}
		got = fread(buf + *len, 1, cap - *len, f);
		*len += got;
		if (ferror(f))
			why = strerror(errno);
	}
	if (f)
		fclose(f);
	if (why) {
		snprintf(e->msg, sizeof(e->msg), "%s: %s", path, why);
		free(buf);
		return NULL;
	}
	return buf;
}

/* What a message shows for a value that is not what it should be. */
static const char *shown(const struct vk_jval *v, char *buf, size_t len)
{
	static const char *const kinds[] = {
		[VK_JNULL] = "null", [VK_JFALSE] = "false", [VK_JTRUE] = "true",
		[VK_JARRAY] = "an array", [VK_JOBJECT] = "an object",
	};

	if (!v)
		return "missing";
	if (v->type == VK_JNUM)
		snprintf(buf, len, "%g", v->num);
	else if (v->type == VK_JSTR)
		snprintf(buf, len, "\"%s\"", vk_safe(v->str));
	else
		return kinds[v->type];
	return buf;
}

/*
 * A time in ns at where ("results[3].samples_ns[2]"): a number from
 * MIN_NS or, for the samples of a --cold file, which are single calls
 * less the timer's overhead, above -MAX_NS; at most MAX_NS either way.
 */
static int read_time(struct vk_bf_err *e, const struct vk_bench_file *f, const char *where,
		     const struct vk_jval *v, int cold, double *out)
{
	char buf[64];

	if (!v || v->type != VK_JNUM)
		return bad_file(e, f, "%s: %s is not a number", where, shown(v, buf, sizeof(buf)));
	if (!(v->num > (cold ? -MAX_NS : 0)))
		return bad_file(e, f, "%s: %g is not a positive time", where, v->num);
	if (!cold && v->num < MIN_NS)
		return bad_file(e, f, "%s: %g ns is less than %g ns", where, v->num, MIN_NS);
	if (v->num > MAX_NS)
		return bad_file(e, f, "%s: %g ns is more than %g ns (a second a call)", where,
				v->num, MAX_NS);
	*out = v->num;
	return 0;
}

/* A non-empty array of at most max times at where into a new *x. */
static int read_times(struct vk_bf_err *e, struct vk_bench_file *f, const char *where,
		      const struct vk_jval *v, size_t max, double **x, size_t *n)
{
	char buf[64], at[160];

	*x = NULL;
	if (!v || v->type != VK_JARRAY)
		return bad_file(e, f, "%s: %s is not an array", where, shown(v, buf, sizeof(buf)));
	if (!v->n)
		return bad_file(e, f, "%s: the array is empty", where);
	if (v->n > max)
		return bad_file(e, f, "%s: %zu values, more than %zu", where, v->n, max);
	if (v->n > f->budget - f->nsamples)
		return bad_file(e, f, "%s: more than %lu samples in the files of a side", where,
				MAX_SIDE_SAMPLES);
	f->nsamples += v->n;
	*x = calloc(v->n, sizeof(**x));
	if (!*x)
		return bad_file(e, f, "%s", strerror(ENOMEM));
	*n = v->n;
	for (size_t k = 0; k < v->n; k++) {
		snprintf(at, sizeof(at), "%s[%zu]", where, k);
		if (read_time(e, f, at, &v->items[k], f->cold, &(*x)[k]))
			return -1;
	}
	return 0;
}

/*
 * Each process's samples ("process_samples_ns", an array of arrays), or,
 * in a file from before processes, "samples_ns" as one process.
 */
static int read_groups(struct vk_bf_err *e, struct vk_bench_file *f, const struct vk_jval *r, size_t i)
{
	const struct vk_jval *procs = vk_jget(r, VK_BF_PROCESS_SAMPLES_NS);
	struct vk_series *s = &f->s[i];
	size_t ngroups = procs ? procs->n : 1, n;
	char where[96], buf[64];
	double *x;

	snprintf(where, sizeof(where), VK_BF_RESULTS "[%zu]." VK_BF_PROCESS_SAMPLES_NS, i);
	if (procs && procs->type != VK_JARRAY)
		return bad_file(e, f, "%s: %s is not an array", where, shown(procs, buf, sizeof(buf)));
	if (procs && !procs->n)
		return bad_file(e, f, "%s: the array is empty", where);
	if (procs && procs->n > MAX_ROW_GROUPS)
		return bad_file(e, f, "%s: %zu processes, more than %d", where, procs->n,
				MAX_ROW_GROUPS);
	s->group_med = calloc(ngroups, sizeof(*s->group_med));
	s->group_n = calloc(ngroups, sizeof(*s->group_n));
	if (!s->group_med || !s->group_n)
		return bad_file(e, f, "%s", strerror(ENOMEM));
	for (size_t g = 0; g < ngroups; g++) {
		const struct vk_jval *one = procs ? &procs->items[g] : vk_jget(r, VK_BF_SAMPLES_NS);
		int status;

		snprintf(where, sizeof(where), procs ? VK_BF_RESULTS "[%zu]." VK_BF_PROCESS_SAMPLES_NS "[%zu]"
						     : VK_BF_RESULTS "[%zu]." VK_BF_SAMPLES_NS, i, g);
		status = read_times(e, f, where, one, MAX_ROW_SAMPLES, &x, &n);
		if (!status) {
			s->group_med[g] = vk_median(x, n);
			s->group_n[g] = n;
		}
		free(x);
		if (status)
			return status;
		if (!(s->group_med[g] >= MIN_NS))
			return bad_file(e, f, "%s: the median, %g ns, is less than %g ns", where,
					s->group_med[g], MIN_NS);
	}
	s->ngroups = ngroups;
	return 0;
}

/* A positive number at most max at where, into *out. */
static int read_positive(struct vk_bf_err *e, const struct vk_bench_file *f, const char *where,
			 const struct vk_jval *v, double max, double *out)
{
	char buf[64];

	if (!v || v->type != VK_JNUM)
		return bad_file(e, f, "%s: %s is not a number", where, shown(v, buf, sizeof(buf)));
	if (!(v->num > 0 && v->num <= max))
		return bad_file(e, f, "%s: %g is not a number from 0 (excluded) to %g", where, v->num,
				max);
	*out = v->num;
	return 0;
}

/*
 * bench --threads' figures of row i, where it has them (files from
 * before have none): every one, each in its bounds, and the rate per
 * thread that of the total.
 */
static int read_threads(struct vk_bf_err *e, const struct vk_bench_file *f,
			const struct vk_jval *r, size_t i)
{
	static const char *const key[] = { VK_BF_CALLS_PER_S, VK_BF_THREAD_NS, VK_BF_ONE_PER_S,
					   VK_BF_SCALING };
	const double max[] = { MAX_RATE, MAX_NS, MAX_RATE, VK_BENCH_MAX_THREADS * 100.0 };
	const struct vk_jval *threads = vk_jget(r, VK_BF_THREADS);
	struct vk_series *s = &f->s[i];
	double x[4], n;
	char where[96];

	for (int k = 0; k < 4 && !threads; k++) {
		if (vk_jget(r, key[k]))
			return bad_file(e, f, VK_BF_RESULTS "[%zu]: \"%s\" without \"" VK_BF_THREADS
					"\"", i, key[k]);
	}
	if (!threads)
		return 0;
	snprintf(where, sizeof(where), VK_BF_RESULTS "[%zu]." VK_BF_THREADS, i);
	if (read_positive(e, f, where, threads, VK_BENCH_MAX_THREADS, &n))
		return -1;
	if (n != (int)n)
		return bad_file(e, f, "%s: %g is not a whole number", where, n);
	for (int k = 0; k < 4; k++) {
		const struct vk_jval *v = vk_jget(r, key[k]);

		/* A scaling bench could not judge (its threads did not run at once). */
		if (k == 3 && v && v->type == VK_JNULL) {
			x[k] = NAN;
			continue;
		}
		snprintf(where, sizeof(where), VK_BF_RESULTS "[%zu].%s", i, key[k]);
		if (read_positive(e, f, where, v, max[k], &x[k]))
			return -1;
	}
	/* Written as threads * 1e9 / calls_per_s: only its rounding may differ. */
	if (fabs(x[1] * x[0] / 1e9 / n - 1) > 1e-6)
		return bad_file(e, f, VK_BF_RESULTS "[%zu]: " VK_BF_THREAD_NS " %g is not %g threads' "
				VK_BF_CALLS_PER_S " %g", i, x[1], n, x[0]);
	s->threads = n;
	s->scaling = x[3];
	return 0;
}

/* A skipped row's failed calls, where its calls failed (files from before have none). */
static int read_failed(struct vk_bf_err *e, const struct vk_bench_file *f,
		       const struct vk_jval *r, size_t i)
{
	const struct vk_jval *failed = vk_jget(r, VK_BF_FAILED);
	char where[64];
	double n;

	if (!failed)
		return 0;
	snprintf(where, sizeof(where), VK_BF_RESULTS "[%zu]." VK_BF_FAILED, i);
	if (read_positive(e, f, where, failed, 1e18, &n))
		return -1;
	if (n != (unsigned long long)n)
		return bad_file(e, f, "%s: %g is not a whole number", where, n);
	f->s[i].failed = n;
	return 0;
}

/* A row into f->s[i]; its samples, once read, are dropped from the tree. */
static int read_series(struct vk_bf_err *e, struct vk_bench_file *f, struct vk_jval *r, size_t i)
{
	struct vk_series *s = &f->s[i];
	const struct vk_jval *samples;
	char where[64];

	s->api = vk_jstr(vk_jget(r, VK_BF_API));
	s->path = vk_jstr(vk_jget(r, VK_BF_PATH));
	if (!s->api || !s->path)
		return bad_file(e, f, VK_BF_RESULTS "[%zu] has no \"%s\" string", i,
				s->api ? VK_BF_PATH : VK_BF_API);
	/* A \u0000 would cut the name there, and the cut name match another. */
	if (strlen(s->api) != vk_jget(r, VK_BF_API)->len ||
	    strlen(s->path) != vk_jget(r, VK_BF_PATH)->len)
		return bad_file(e, f, VK_BF_RESULTS "[%zu].%s holds a NUL (\\u0000)", i,
				strlen(s->api) != vk_jget(r, VK_BF_API)->len ? VK_BF_API : VK_BF_PATH);
	for (size_t k = 0; k < i; k++) {
		if (!strcmp(f->s[k].api, s->api) && !strcmp(f->s[k].path, s->path))
			return bad_file(e, f, VK_BF_RESULTS "[%zu] repeats %s on %s", i, vk_safe(s->api),
					vk_safe(s->path));
	}
	samples = vk_jget(r, VK_BF_SAMPLES_NS);
	s->skipped = samples ? NULL : vk_jstr(vk_jget(r, VK_BF_SKIPPED));
	if (s->skipped)
		return read_failed(e, f, r, i);
	if (!samples)
		return bad_file(e, f, VK_BF_RESULTS "[%zu] (%s on %s) has neither \"" VK_BF_SAMPLES_NS
				"\" nor \"" VK_BF_SKIPPED "\"",
				i, vk_safe(s->api), vk_safe(s->path));
	snprintf(where, sizeof(where), VK_BF_RESULTS "[%zu]." VK_BF_SAMPLES_NS, i);
	if (read_times(e, f, where, samples, MAX_ROW_SAMPLES, &s->ns, &s->n) ||
	    read_groups(e, f, r, i) || read_threads(e, f, r, i))
		return -1;
	for (size_t k = 0; k < r->n; k++) {
		if (!strcmp(r->items[k].key, VK_BF_SAMPLES_NS) ||
		    !strcmp(r->items[k].key, VK_BF_PROCESS_SAMPLES_NS))
			vk_jdrop(&r->items[k]);
	}
	return 0;
}

/* The reference loops' figures, where present: times like the samples. */
static int read_reference(struct vk_bf_err *e, struct vk_bench_file *f)
{
	const struct vk_jval *ref = vk_jget(f->doc, VK_BF_REFERENCE);
	char where[96];
	double x;

	for (int k = 0; k < VK_REF_KINDS; k++) {
		const struct vk_jval *run = vk_jget(ref, vk_bench_ref_keys[k].run);
		const struct vk_jval *each = vk_jget(ref, vk_bench_ref_keys[k].each);

		snprintf(where, sizeof(where), VK_BF_REFERENCE ".%s", vk_bench_ref_keys[k].run);
		if (run && run->type != VK_JNULL && read_time(e, f, where, run, 0, &x))
			return -1;
		if (!each || each->type == VK_JNULL)
			continue;
		snprintf(where, sizeof(where), VK_BF_REFERENCE ".%s", vk_bench_ref_keys[k].each);
		if (each->type != VK_JARRAY || each->n > MAX_ROW_GROUPS)
			return bad_file(e, f, "%s: not an array of at most %d times", where,
					MAX_ROW_GROUPS);
		for (size_t i = 0; i < each->n; i++) {
			snprintf(where, sizeof(where), VK_BF_REFERENCE ".%s[%zu]", vk_bench_ref_keys[k].each,
				 i);
			if (read_time(e, f, where, &each->items[i], 0, &x))
				return -1;
		}
	}
	return 0;
}

/*
 * The schema's version, from "vdsokit-bench/N", and where the run's
 * environment is: bench/2's "environment"; bench/1's top, which farms
 * still keep.
 */
static int read_schema(struct vk_bf_err *e, struct vk_bench_file *f)
{
	const char *schema = vk_jstr(vk_jget(f->doc, VK_DOC_SCHEMA));

	if (!schema)
		return bad_file(e, f, "no \"" VK_DOC_SCHEMA "\" string: not a vdsokit bench file");
	if (!strcmp(schema, VK_BENCH_SCHEMA_1)) {
		f->env = f->doc;
		f->machine = vk_jget(f->doc, VK_DOC_ENVIRONMENT);
	} else if (!strcmp(schema, VK_BENCH_SCHEMA_2)) {
		f->env = f->machine = vk_jget(f->doc, VK_DOC_ENVIRONMENT);
	} else
		return bad_file(e, f, "schema is \"%s\", expected \"%s\" or /1", vk_safe(schema),
				VK_BENCH_SCHEMA_2);
	return 0;
}

/*
 * getrandom's bytes a call, 1 to VK_BENCH_MAX_RANDOM_LEN; a file written
 * before --length has none, and measured 16.
 */
static size_t random_len(const struct vk_jval *options)
{
	const struct vk_jval *v = vk_jget(options, VK_BF_RANDOM_LEN);

	return v ? (v->type == VK_JNUM && v->num >= 1 && v->num <= VK_BENCH_MAX_RANDOM_LEN &&
		    v->num == (size_t)v->num ? (size_t)v->num : 0) : VK_BENCH_RANDOM_LEN;
}

static int read_random_len(struct vk_bf_err *e, struct vk_bench_file *f)
{
	f->random_len = random_len(vk_jget(f->env, VK_DOC_OPTIONS));
	if (!f->random_len)
		return bad_file(e, f, VK_BF_RANDOM_LEN " is not a length from 1 to %d",
				VK_BENCH_MAX_RANDOM_LEN);
	return 0;
}

static int read_bench(struct vk_bf_err *e, struct vk_bench_file *f)
{
	const struct vk_jval *results = vk_jget(f->doc, VK_BF_RESULTS);
	const struct vk_jval *cold;

	if (read_schema(e, f))
		return -1;
	if (!results || results->type != VK_JARRAY)
		return bad_file(e, f, "no \"" VK_BF_RESULTS "\" array");
	if (results->n > MAX_ROWS)
		return bad_file(e, f, VK_BF_RESULTS ": %zu rows, more than %d", results->n, MAX_ROWS);
	cold = vk_jget(vk_jget(f->env, VK_DOC_OPTIONS), VK_BF_COLD);
	f->cold = cold && cold->type == VK_JTRUE;
	if (read_random_len(e, f))
		return -1;
	if (read_reference(e, f))
		return -1;
	f->s = calloc(results->n ? results->n : 1, sizeof(*f->s));
	if (!f->s)
		return bad_file(e, f, "%s", strerror(ENOMEM));
	f->n = results->n;
	for (size_t i = 0; i < f->n; i++) {
		if (read_series(e, f, &results->items[i], i))
			return -1;
	}
	return 0;
}

static void copy_str(char *to, size_t len, const struct vk_jval *v)
{
	snprintf(to, len, "%s", vk_jstr(v) ? vk_jstr(v) : "");
}

/* A number of the file, or 0 where it has none. */
static double num(const struct vk_jval *v)
{
	return v && v->type == VK_JNUM ? v->num : 0;
}

static void read_warnings(const struct vk_jval *w, struct vk_warnings *to)
{
	for (size_t i = 0; i < vk_jarray_len(w) && to->n < VK_MAX_WARNINGS; i++) {
		const struct vk_jval *one = vk_jarray_at(w, i);
		struct vk_warning *x = &to->w[to->n++];

		x->what = vk_jstr(vk_jget(one, VK_BF_WARNING));
		copy_str(x->detail, sizeof(x->detail), vk_jget(one, VK_BF_DETAIL));
		x->fix = vk_jstr(vk_jget(one, VK_BF_FIX));
	}
}

void vk_bench_file_run(const struct vk_jval *doc, struct vk_bench_report *rep,
		       struct vk_timer *timer)
{
	const struct vk_jval *tool = vk_jget(doc, VK_DOC_TOOL), *env = vk_jget(doc, VK_DOC_ENVIRONMENT);
	const struct vk_jval *kernel = vk_jget(env, VK_DOC_KERNEL), *opt = vk_jget(env, VK_DOC_OPTIONS);
	const struct vk_jval *t = vk_jget(doc, VK_BF_TIMER);
	double ghz = num(vk_jget(t, VK_BF_TIMER_GHZ));

	rep->version = vk_jstr(vk_jget(tool, VK_DOC_VERSION));
	rep->build = vk_jstr(vk_jget(tool, VK_DOC_BUILD));
	copy_str(rep->uts.release, sizeof(rep->uts.release), vk_jget(kernel, VK_DOC_RELEASE));
	copy_str(rep->uts.machine, sizeof(rep->uts.machine), vk_jget(kernel, VK_DOC_MACHINE));
	copy_str(rep->clocksource, sizeof(rep->clocksource), vk_jget(env, VK_DOC_CLOCKSOURCE));
	copy_str(rep->cpu_model, sizeof(rep->cpu_model), vk_jget(env, VK_BF_CPU_MODEL));
	copy_str(rep->governor, sizeof(rep->governor), vk_jget(env, VK_BF_GOVERNOR));
	copy_str(rep->time, sizeof(rep->time), vk_jget(doc, VK_BF_TIME));
	rep->loadavg = num(vk_jget(env, VK_BF_LOADAVG));
	rep->voluntary = num(vk_jget(env, VK_BF_VOLUNTARY));
	rep->involuntary = num(vk_jget(env, VK_BF_INVOLUNTARY));
	rep->disturbed = vk_jget(env, VK_BF_DISTURBED) && vk_jget(env, VK_BF_DISTURBED)->type == VK_JTRUE;
	read_warnings(vk_jget(env, VK_BF_WARNINGS), &rep->warnings);
	rep->seconds = num(vk_jget(opt, VK_BF_SECONDS));
	rep->samples = num(vk_jget(opt, VK_BF_SAMPLES));
	rep->processes = num(vk_jget(opt, VK_BF_PROCESSES));
	rep->cpu = num(vk_jget(opt, VK_BF_CPU));
	rep->cold = vk_jget(opt, VK_BF_COLD) && vk_jget(opt, VK_BF_COLD)->type == VK_JTRUE;
	rep->random_len = random_len(opt);
	timer->name = vk_jstr(vk_jget(t, VK_BF_TIMER_NAME));
	timer->ns_per_tick = 1 / ghz;
	timer->overhead = num(vk_jget(t, VK_BF_TIMER_OVERHEAD)) * ghz;
	rep->timer = timer;
}

int vk_bench_file_read(const char *name, const char *text, size_t len, struct vk_bench_file *f,
		       struct vk_bf_err *e)
{
	struct vk_jerr err;

	f->name = name;
	f->doc = vk_jparse(text, len, &err);
	if (!f->doc) {
		snprintf(e->msg, sizeof(e->msg), "%s:%lu:%lu: not valid JSON: %s", name, err.line,
			 err.column, err.msg);
		return -1;
	}
	return read_bench(e, f);
}

int vk_bench_file_load(const char *path, struct vk_bench_file *f, struct vk_bf_err *e)
{
	size_t len;
	char *text = read_file(path, &len, e);
	int status;

	f->name = path;
	if (!text)
		return -1;
	status = vk_bench_file_read(path, text, len, f, e);
	free(text);
	return status;
}

void vk_bench_file_free(struct vk_bench_file *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->s[i].ns);
		free(f->s[i].group_med);
		free(f->s[i].group_n);
	}
	free(f->s);
	vk_jfree(f->doc);
}

