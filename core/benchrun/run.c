// SPDX-License-Identifier: MIT
/*
 * bench's run, the parent's side: pinned and calibrated, its workers run
 * in turn, and the run described as a struct vk_bench_report: its rows,
 * its reference loops, the machine and how quiet it was.
 */
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "core/base/safe.h"
#include "core/base/sysinfo.h"
#include "core/bench/stats.h"
#include "core/benchrun/workers.h"

static size_t short_rows(const struct vk_bench_report *rep)
{
	size_t n = 0;

	for (size_t i = 0; i < rep->n; i++)
		n += !rep->r[i].skipped && rep->r[i].ngroups < VK_VERDICT_GROUPS;
	return n;
}

/* The rows whose --threads' scaling could not be judged, and the least share at once. */
static size_t unjudged_rows(const struct vk_bench_report *rep, double *least)
{
	size_t n = 0;

	*least = 1;
	for (size_t i = 0; i < rep->n; i++) {
		const struct vk_bench_result *r = &rep->r[i];

		if (r->skipped || !r->threads || !isnan(r->scaling))
			continue;
		n++;
		if (r->at_once < *least)
			*least = r->at_once;
	}
	return n;
}

/* The run as a whole: this process and its workers. */
static void switches(long *vol, long *invol)
{
	struct rusage self, children;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &children);
	*vol = self.ru_nvcsw + children.ru_nvcsw;
	*invol = self.ru_nivcsw + children.ru_nivcsw;
}

static void describe_run(struct vk_bench_report *rep, long vol0, long invol0)
{
	struct vk_sysinfo si;
	time_t now = time(NULL);
	double load[1] = { 0 }, least;
	size_t unjudged;

	strftime(rep->time, sizeof(rep->time), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	vk_bench_run_id(rep->run_id, sizeof(rep->run_id));
	uname(&rep->uts);
	if (vk_env_cpuinfo("", "model name", rep->cpu_model, sizeof(rep->cpu_model)))
		snprintf(rep->cpu_model, sizeof(rep->cpu_model), "unknown");
	vk_sysinfo_read(&si);
	snprintf(rep->clocksource, sizeof(rep->clocksource), "%s",
		 si.clocksource[0] ? si.clocksource : "unknown");
	if (getloadavg(load, 1) == 1)
		rep->loadavg = load[0];
	switches(&rep->voluntary, &rep->involuntary);
	rep->voluntary -= vol0;
	rep->involuntary -= invol0;
	/* More than one preemption per sample, or more runnable tasks than CPUs. */
	rep->disturbed = rep->involuntary > (long)(rep->n * rep->samples * rep->processes) ||
			 rep->loadavg > sysconf(_SC_NPROCESSORS_ONLN);
	vk_env_governor("", rep->governor, sizeof(rep->governor));
	vk_env_check(&rep->warnings, "", &si, rep->loadavg, sysconf(_SC_NPROCESSORS_ONLN));
	vk_env_check_groups(&rep->warnings, short_rows(rep), rep->n);
	unjudged = unjudged_rows(rep, &least);
	vk_env_check_at_once(&rep->warnings, unjudged, rep->n, least);
}

/* Each row's name and path, in the order the workers measure them. */
static size_t name_rows(const struct vk_bench_plan *p, const struct vk_bench_case *cases,
			size_t ncases, struct vk_bench_result *res)
{
	size_t n = 0;

	for (size_t i = 0; i < ncases; i++) {
		for (int path = 0; path < VK_NPATHS; path++) {
			if (!(p->paths & VK_PATH_BIT(path)))
				continue;
			memcpy(res[n].api, cases[i].api, sizeof(res[n].api));
			res[n++].path = path;
		}
	}
	return n;
}

/* The run's reference: the median of its processes'. */
static void reference(struct vk_bench_report *rep, const struct vk_bench_rows *rows)
{
	double each[VK_BENCH_MAX_GROUPS];

	rep->nref = rows->nref;
	rep->ref = rows->ref;
	for (int k = 0; k < VK_REF_KINDS; k++) {
		for (int i = 0; i < rows->nref; i++)
			each[i] = rows->ref[i].ns[k];
		rep->reference.ns[k] = vk_median(each, rows->nref);
	}
}

/* The workers' rows into d's document; how the run ended. */
static enum vk_measure_end measure(const struct vk_bench_plan *p, char *const *argv0,
				   struct vk_bench_case *cases, size_t ncases,
				   const struct vk_bench_say *say, struct vk_bench_run_doc *d)
{
	struct vk_bench_report *rep = &d->rep;
	size_t measured = 0, failed = 0;
	long vol0, invol0;
	enum vk_measure_end status;

	*rep = (struct vk_bench_report){
		.seconds = p->m.seconds, .samples = p->m.samples,
		.processes = p->processes, .cpu = p->m.cpu, .cold = p->cold, .timer = &d->timer,
		.threads = p->threads, .thread_cpu = p->thread_cpu, .random_len = p->length,
		.r = d->res,
	};
	d->rows = (struct vk_bench_rows){ .cases = cases, .ncases = ncases, .r = d->res };
	switches(&vol0, &invol0);
	d->rows.n = rep->n = name_rows(p, cases, ncases, d->res);
	status = vk_bench_workers(p, argv0, &d->timer, &d->rows, say);
	for (size_t i = 0; i < rep->n; i++) {
		measured += !d->res[i].skipped;
		failed += d->res[i].failed != 0;
	}
	reference(rep, &d->rows);
	describe_run(rep, vol0, invol0);
	if (p->threads)
		vk_env_check_threads(&rep->warnings, p->threads, p->ncpus);
	/* A call that failed is the code under test's failure, as a crash is. */
	if (failed)
		return VK_MEASURE_FAILED;
	if (status)
		return status;
	return measured ? VK_MEASURED : VK_MEASURE_NOTHING;
}

enum vk_measure_end vk_bench_measure(struct vk_bench_plan *p, char *const *argv0,
				     struct vk_bench_case *cases, size_t ncases,
				     const struct vk_bench_say *say, struct vk_bench_run_doc *d,
				     char *err, size_t len)
{
	struct vk_image im;
	struct vk_callset cs;
	char why[256];
	int have_vdso = vk_image_open_live(&im) == 0;
	enum vk_measure_end status;
	cpu_set_t allowed;

	d->res = NULL;
	/* Before bench pins itself to one of them. */
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		CPU_ZERO(&allowed);
	status = vk_bench_setup(&p->m.cpu, &d->timer, err, len);
	if (status)
		return status;
	if (p->threads)
		vk_bench_thread_cpus(p, &allowed);
	/* The library is probed here too (in a child), so that a bad --impl is
	 * refused once, not a worker's death said ten times. */
	if (vk_callset_init(&cs, have_vdso ? &im : NULL, p->impl, why, sizeof(why))) {
		snprintf(err, len, "%s", vk_safe(why));
		return VK_MEASURE_REFUSED;
	}
	d->res = calloc(ncases * VK_NPATHS, sizeof(*d->res));
	if (!d->res) {
		snprintf(err, len, "out of memory");
		return VK_MEASURE_REFUSED;
	}
	for (size_t i = 0; i < ncases; i++)
		cases[i].len = p->length;
	return measure(p, argv0, cases, ncases, say, d);
}
