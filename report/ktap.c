// SPDX-License-Identifier: MIT
#include <stdarg.h>

#include "report/bench.h"
#include "report/compare.h"
#include "report/info.h"
#include "report/ktap.h"
#include "report/report.h"
#include "report/summary.h"

void vk_ktap_line(const struct vk_ktap *k, const char *fmt, ...)
{
	va_list ap;

	fprintf(k->f, "%*s", 2 * k->depth, "");
	va_start(ap, fmt);
	vfprintf(k->f, fmt, ap);
	va_end(ap);
	fputc('\n', k->f);
}

void vk_ktap_begin(const struct vk_ktap *k)
{
	vk_ktap_line(k, "KTAP version 1");
	if (k->depth)
		vk_ktap_line(k, "# Subtest: %s", k->name);
}

void vk_ktap_doc(const struct vk_ktap *k, const struct vk_doc *d)
{
	if (d->results) {
		vk_report_ktap(k, d->results);
	} else if (d->bench) {
		vk_report_bench_ktap(k, d->bench);
	} else if (d->compare) {
		vk_report_compare_ktap(k, d->compare);
	} else if (d->info) {
		vk_report_info_ktap(k, d->info);
	} else if (d->summary) {
		vk_report_summary_ktap(k, d->summary);
	} else {
		vk_ktap_begin(k);
		vk_ktap_line(k, "1..0 # SKIP %s", d->skipped ? d->skipped : "nothing ran");
	}
}

void vk_report_ktap_doc(FILE *f, const struct vk_doc *d)
{
	vk_ktap_doc(&(const struct vk_ktap){ .f = f }, d);
}
