// SPDX-License-Identifier: MIT
/*
 * compare's bench files: each read into series, one per API and path, and
 * the runs given for a side merged into one, each series holding the
 * processes of every run. Several runs a side average out what moves a
 * whole run (the machine's state at its moment, a boot's layout), which
 * the processes of one run share and so cannot show.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/base/file.h"
#include "core/base/json_read.h"
#include "core/bench/stats.h"
#include "core/bench/timer.h"
#include "report/bench.h"
#include "core/benchfile/keys.h"
#include "core/base/safe.h"
#include "commands/compare_cmd.h"

#define MAX_FILE (64UL << 20)	/* a bench file is far smaller */
/*
 * Far above what bench writes (64 processes and 512 samples a row, some
 * 150 rows) and what vm merges (3 boots of 10 processes by default),
 * these keep a hostile file from making compare take minutes and
 * gigabytes: each row costs 10,000 bootstrap resamples of its process
 * medians and a Hodges-Lehmann shift over every pair of them, so a side
 * at the bounds takes some 20 s on a loaded 2-CPU machine, in 30 MB.
 */
#define MAX_ROWS 4096			/* results in a file */
#define MAX_ROW_GROUPS 1024		/* processes a row, in a file and in a side */
#define MAX_ROW_SAMPLES 65536		/* samples a process, and a row's samples_ns */
#define MAX_SIDE_SAMPLES (1UL << 22)	/* in all the sample arrays of a side's files */
#define MAX_SIDE_GROUPS (1UL << 15)	/* processes in all the rows of a side */
#define MAX_NS 1e9			/* a second a call: no vDSO call is that slow */
#define MIN_NS 1e-3			/* nor that fast; a ratio to less has 300 digits */

/* Print "vdsokit compare: FILE: message"; returns the exit status. */
__attribute__((format(printf, 3, 4)))
static int bad_file(const char *cmd, const struct vk_bench_file *f, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s: ", cmd, f->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return VK_EXIT_USAGE;
}

/* The whole file, or NULL after saying why. */
static char *read_file(const char *cmd, const char *path, size_t *len)
{
	char err[PATH_MAX + 64];
	int fd = vk_open_regular(path, err, sizeof(err));
	FILE *f = fd < 0 ? NULL : fdopen(fd, "rb");
	const char *why = f ? NULL : strerror(errno);
	size_t cap = 0, got = 1;
	char *buf = NULL, *grown;

	*len = 0;
	if (fd < 0) {
		fprintf(stderr, "%s: %s\n", cmd, err);
		return NULL;
	}
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
		fprintf(stderr, "%s: %s: %s\n", cmd, path, why);
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
static int read_time(const char *cmd, const struct vk_bench_file *f, const char *where,
		     const struct vk_jval *v, int cold, double *out)
{
	char buf[64];

	if (!v || v->type != VK_JNUM)
		return bad_file(cmd, f, "%s: %s is not a number", where, shown(v, buf, sizeof(buf)));
	if (!(v->num > (cold ? -MAX_NS : 0)))
		return bad_file(cmd, f, "%s: %g is not a positive time", where, v->num);
	if (!cold && v->num < MIN_NS)
		return bad_file(cmd, f, "%s: %g ns is less than %g ns", where, v->num, MIN_NS);
	if (v->num > MAX_NS)
		return bad_file(cmd, f, "%s: %g ns is more than %g ns (a second a call)", where,
				v->num, MAX_NS);
	*out = v->num;
	return 0;
}

/* A non-empty array of at most max times at where into a new *x. */
static int read_times(const char *cmd, struct vk_bench_file *f, const char *where,
		      const struct vk_jval *v, size_t max, double **x, size_t *n)
{
	char buf[64], at[160];

	*x = NULL;
	if (!v || v->type != VK_JARRAY)
		return bad_file(cmd, f, "%s: %s is not an array", where, shown(v, buf, sizeof(buf)));
	if (!v->n)
		return bad_file(cmd, f, "%s: the array is empty", where);
	if (v->n > max)
		return bad_file(cmd, f, "%s: %zu values, more than %zu", where, v->n, max);
	if (v->n > f->budget - f->nsamples)
		return bad_file(cmd, f, "%s: more than %lu samples in the files of a side", where,
				MAX_SIDE_SAMPLES);
	f->nsamples += v->n;
	*x = calloc(v->n, sizeof(**x));
	if (!*x)
		return bad_file(cmd, f, "%s", strerror(ENOMEM));
	*n = v->n;
	for (size_t k = 0; k < v->n; k++) {
		snprintf(at, sizeof(at), "%s[%zu]", where, k);
		if (read_time(cmd, f, at, &v->items[k], f->cold, &(*x)[k]))
			return VK_EXIT_USAGE;
	}
	return 0;
}

/*
 * Each process's samples ("process_samples_ns", an array of arrays), or,
 * in a file from before processes, "samples_ns" as one process.
 */
static int read_groups(const char *cmd, struct vk_bench_file *f, const struct vk_jval *r, size_t i)
{
	const struct vk_jval *procs = vk_jget(r, VK_BF_PROCESS_SAMPLES_NS);
	struct vk_series *s = &f->s[i];
	size_t ngroups = procs ? procs->n : 1, n;
	char where[96], buf[64];
	double *x;

	snprintf(where, sizeof(where), VK_BF_RESULTS "[%zu]." VK_BF_PROCESS_SAMPLES_NS, i);
	if (procs && procs->type != VK_JARRAY)
		return bad_file(cmd, f, "%s: %s is not an array", where, shown(procs, buf, sizeof(buf)));
	if (procs && !procs->n)
		return bad_file(cmd, f, "%s: the array is empty", where);
	if (procs && procs->n > MAX_ROW_GROUPS)
		return bad_file(cmd, f, "%s: %zu processes, more than %d", where, procs->n,
				MAX_ROW_GROUPS);
	s->group_med = calloc(ngroups, sizeof(*s->group_med));
	if (!s->group_med)
		return bad_file(cmd, f, "%s", strerror(ENOMEM));
	for (size_t g = 0; g < ngroups; g++) {
		const struct vk_jval *one = procs ? &procs->items[g] : vk_jget(r, VK_BF_SAMPLES_NS);
		int status;

		snprintf(where, sizeof(where), procs ? VK_BF_RESULTS "[%zu]." VK_BF_PROCESS_SAMPLES_NS "[%zu]"
						     : VK_BF_RESULTS "[%zu]." VK_BF_SAMPLES_NS, i, g);
		status = read_times(cmd, f, where, one, MAX_ROW_SAMPLES, &x, &n);
		if (!status)
			s->group_med[g] = vk_median(x, n);
		free(x);
		if (status)
			return status;
		if (!(s->group_med[g] >= MIN_NS))
			return bad_file(cmd, f, "%s: the median, %g ns, is less than %g ns", where,
					s->group_med[g], MIN_NS);
	}
	s->ngroups = ngroups;
	return 0;
}

/* A row into f->s[i]; its samples, once read, are dropped from the tree. */
static int read_series(const char *cmd, struct vk_bench_file *f, struct vk_jval *r, size_t i)
{
	struct vk_series *s = &f->s[i];
	const struct vk_jval *samples;
	char where[64];

	s->api = vk_jstr(vk_jget(r, VK_BF_API));
	s->path = vk_jstr(vk_jget(r, VK_BF_PATH));
	if (!s->api || !s->path)
		return bad_file(cmd, f, VK_BF_RESULTS "[%zu] has no \"%s\" string", i,
				s->api ? VK_BF_PATH : VK_BF_API);
	for (size_t k = 0; k < i; k++) {
		if (!strcmp(f->s[k].api, s->api) && !strcmp(f->s[k].path, s->path))
			return bad_file(cmd, f, VK_BF_RESULTS "[%zu] repeats %s on %s", i, vk_safe(s->api),
					vk_safe(s->path));
	}
	samples = vk_jget(r, VK_BF_SAMPLES_NS);
	if (!samples && vk_jstr(vk_jget(r, VK_BF_SKIPPED)))
		return 0;
	if (!samples)
		return bad_file(cmd, f, VK_BF_RESULTS "[%zu] (%s on %s) has neither \"" VK_BF_SAMPLES_NS
				"\" nor \"" VK_BF_SKIPPED "\"",
				i, vk_safe(s->api), vk_safe(s->path));
	snprintf(where, sizeof(where), VK_BF_RESULTS "[%zu]." VK_BF_SAMPLES_NS, i);
	if (read_times(cmd, f, where, samples, MAX_ROW_SAMPLES, &s->ns, &s->n) ||
	    read_groups(cmd, f, r, i))
		return VK_EXIT_USAGE;
	for (size_t k = 0; k < r->n; k++) {
		if (!strcmp(r->items[k].key, VK_BF_SAMPLES_NS) ||
		    !strcmp(r->items[k].key, VK_BF_PROCESS_SAMPLES_NS))
			vk_jdrop(&r->items[k]);
	}
	return 0;
}

/* The reference loops' figures, where present: times like the samples. */
static int read_reference(const char *cmd, struct vk_bench_file *f)
{
	const struct vk_jval *ref = vk_jget(f->doc, VK_BF_REFERENCE);
	char where[96];
	double x;

	for (int k = 0; k < VK_REF_KINDS; k++) {
		const struct vk_jval *run = vk_jget(ref, vk_bench_ref_keys[k].run);
		const struct vk_jval *each = vk_jget(ref, vk_bench_ref_keys[k].each);

		snprintf(where, sizeof(where), VK_BF_REFERENCE ".%s", vk_bench_ref_keys[k].run);
		if (run && run->type != VK_JNULL && read_time(cmd, f, where, run, 0, &x))
			return VK_EXIT_USAGE;
		if (!each || each->type == VK_JNULL)
			continue;
		snprintf(where, sizeof(where), VK_BF_REFERENCE ".%s", vk_bench_ref_keys[k].each);
		if (each->type != VK_JARRAY || each->n > MAX_ROW_GROUPS)
			return bad_file(cmd, f, "%s: not an array of at most %d times", where,
					MAX_ROW_GROUPS);
		for (size_t i = 0; i < each->n; i++) {
			snprintf(where, sizeof(where), VK_BF_REFERENCE ".%s[%zu]", vk_bench_ref_keys[k].each,
				 i);
			if (read_time(cmd, f, where, &each->items[i], 0, &x))
				return VK_EXIT_USAGE;
		}
	}
	return 0;
}

/*
 * The schema's version, from "vdsokit-bench/N", and where the run's
 * environment is: bench/2's "environment"; bench/1's top, which farms
 * still keep.
 */
static int read_schema(const char *cmd, struct vk_bench_file *f)
{
	const char *schema = vk_jstr(vk_jget(f->doc, VK_DOC_SCHEMA));

	if (!schema)
		return bad_file(cmd, f, "no \"" VK_DOC_SCHEMA "\" string: not a vdsokit bench file");
	if (!strcmp(schema, VK_BENCH_SCHEMA_1)) {
		f->env = f->doc;
		f->machine = vk_jget(f->doc, VK_DOC_ENVIRONMENT);
	} else if (!strcmp(schema, VK_BENCH_SCHEMA_2)) {
		f->env = f->machine = vk_jget(f->doc, VK_DOC_ENVIRONMENT);
	} else
		return bad_file(cmd, f, "schema is \"%s\", expected \"%s\" or /1", vk_safe(schema),
				VK_BENCH_SCHEMA_2);
	return 0;
}

static int read_bench(const char *cmd, struct vk_bench_file *f)
{
	const struct vk_jval *results = vk_jget(f->doc, VK_BF_RESULTS);
	const struct vk_jval *cold;

	if (read_schema(cmd, f))
		return VK_EXIT_USAGE;
	if (!results || results->type != VK_JARRAY)
		return bad_file(cmd, f, "no \"" VK_BF_RESULTS "\" array");
	if (results->n > MAX_ROWS)
		return bad_file(cmd, f, VK_BF_RESULTS ": %zu rows, more than %d", results->n, MAX_ROWS);
	cold = vk_jget(vk_jget(f->env, VK_DOC_OPTIONS), VK_BF_COLD);
	f->cold = cold && cold->type == VK_JTRUE;
	if (read_reference(cmd, f))
		return VK_EXIT_USAGE;
	f->s = calloc(results->n ? results->n : 1, sizeof(*f->s));
	if (!f->s)
		return bad_file(cmd, f, "%s", strerror(ENOMEM));
	f->n = results->n;
	for (size_t i = 0; i < f->n; i++) {
		if (read_series(cmd, f, &results->items[i], i))
			return VK_EXIT_USAGE;
	}
	return VK_EXIT_OK;
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
	timer->name = vk_jstr(vk_jget(t, VK_BF_TIMER_NAME));
	timer->ns_per_tick = 1 / ghz;
	timer->overhead = num(vk_jget(t, VK_BF_TIMER_OVERHEAD)) * ghz;
	rep->timer = timer;
}

int vk_bench_file_read(const char *cmd, const char *name, const char *text, size_t len,
		       struct vk_bench_file *f)
{
	struct vk_jerr err;

	f->name = name;
	f->doc = vk_jparse(text, len, &err);
	if (!f->doc) {
		fprintf(stderr, "%s: %s:%lu:%lu: not valid JSON: %s\n", cmd, name, err.line,
			err.column, err.msg);
		return VK_EXIT_USAGE;
	}
	return read_bench(cmd, f);
}

static int load_file(const char *cmd, const char *path, struct vk_bench_file *f)
{
	size_t len;
	char *text = read_file(cmd, path, &len);
	int status;

	f->name = path;
	if (!text)
		return VK_EXIT_USAGE;
	status = vk_bench_file_read(cmd, path, text, len, f);
	free(text);
	return status;
}

void vk_bench_file_free(struct vk_bench_file *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->s[i].ns);
		free(f->s[i].group_med);
	}
	free(f->s);
	vk_jfree(f->doc);
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

/* A different machine is worth knowing, not a reason to refuse. */
static void warn_mismatch(const char *cmd, const struct vk_bench_file *a, const struct vk_bench_file *b)
{
	for (size_t i = 0; i < ARRAY_SIZE(same); i++) {
		const char *x = field(a, same[i].obj, same[i].key);
		const char *y = field(b, same[i].obj, same[i].key);

		if (x && y && strcmp(x, y))
			fprintf(stderr, "%s: warning: the runs come from different %s: %s (%s), %s (%s)\n",
				cmd, same[i].what, x, a->name, y, b->name);
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

void vk_compare_runs_context(const char *cmd, struct vk_compare_report *rep,
			     const struct vk_compare_runs *a, const struct vk_compare_runs *b)
{
	/* Within a side too: a run of another kernel is likely a slip. */
	for (size_t k = 1; k < a->nf; k++)
		warn_mismatch(cmd, &a->f[0], &a->f[k]);
	for (size_t k = 1; k < b->nf; k++)
		warn_mismatch(cmd, &b->f[0], &b->f[k]);
	warn_mismatch(cmd, &a->f[0], &b->f[0]);
	env_fields(rep, &a->f[0], &b->f[0]);
	reference(rep, a, b);
}

static struct vk_series *merged_find(struct vk_compare_runs *r, const struct vk_series *s)
{
	for (size_t i = 0; i < r->n; i++) {
		if (!strcmp(r->s[i].api, s->api) && !strcmp(r->s[i].path, s->path))
			return &r->s[i];
	}
	return NULL;
}

/* Append from's samples and group medians to to's. */
static int append(struct vk_series *to, const struct vk_series *from)
{
	double *ns = realloc(to->ns, (to->n + from->n) * sizeof(*ns));
	double *g;

	if (!ns)
		return -1;
	to->ns = ns;
	g = realloc(to->group_med, (to->ngroups + from->ngroups) * sizeof(*g));
	if (!g)
		return -1;
	to->group_med = g;
	memcpy(to->ns + to->n, from->ns, from->n * sizeof(*ns));
	memcpy(to->group_med + to->ngroups, from->group_med, from->ngroups * sizeof(*g));
	to->n += from->n;
	to->ngroups += from->ngroups;
	return 0;
}

/* Every run's series into r->s, in the order they first appear. */
static int merge(const char *cmd, struct vk_compare_runs *r)
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
			struct vk_series *to = merged_find(r, s);

			if (!to) {
				to = &r->s[r->n++];
				to->api = s->api;
				to->path = s->path;
			}
			if (s->ns && append(to, s))
				goto nomem;
			groups += s->ngroups;
			if (to->ngroups > MAX_ROW_GROUPS || groups > MAX_SIDE_GROUPS)
				goto too_many;
		}
	}
	return 0;
too_many:
	fprintf(stderr, "%s: %s: more than %d processes in a row or %lu in all: too many to compare\n",
		cmd, vk_safe(r->names), MAX_ROW_GROUPS, MAX_SIDE_GROUPS);
	return VK_EXIT_USAGE;
nomem:
	fprintf(stderr, "%s: %s\n", cmd, strerror(ENOMEM));
	return VK_EXIT_USAGE;
}

/* "a.json, b.json": the side's name in the report. */
static int names(const char *cmd, struct vk_compare_runs *r, char *const *paths)
{
	size_t len = 1;

	for (size_t k = 0; k < r->nf; k++)
		len += strlen(paths[k]) + 2;
	r->names = malloc(len);
	if (!r->names) {
		fprintf(stderr, "%s: %s\n", cmd, strerror(ENOMEM));
		return VK_EXIT_USAGE;
	}
	r->names[0] = '\0';
	for (size_t k = 0; k < r->nf; k++) {
		if (k)
			strcat(r->names, ", ");
		strcat(r->names, paths[k]);
	}
	return 0;
}

int vk_compare_read_runs(const char *cmd, char *const *paths, size_t n,
			 struct vk_compare_runs *r)
{
	int status;

	r->f = calloc(n, sizeof(*r->f));
	if (!r->f) {
		fprintf(stderr, "%s: %s\n", cmd, strerror(ENOMEM));
		return VK_EXIT_USAGE;
	}
	r->nf = n;
	status = names(cmd, r, paths);
	for (size_t k = 0, used = 0; !status && k < n; k++) {
		r->f[k].budget = MAX_SIDE_SAMPLES - used;
		status = load_file(cmd, paths[k], &r->f[k]);
		used += r->f[k].nsamples;
	}
	return status ? status : merge(cmd, r);
}

void vk_compare_free_runs(struct vk_compare_runs *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->s[i].ns);
		free(r->s[i].group_med);
	}
	free(r->s);
	for (size_t k = 0; r->f && k < r->nf; k++)
		vk_bench_file_free(&r->f[k]);
	free(r->f);
	free(r->names);
}
