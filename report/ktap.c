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
	switch (d->kind) {
	case VK_DOC_RESULTS:
		vk_report_ktap(k, d->results);
		break;
	case VK_DOC_BENCH:
		vk_report_bench_ktap(k, d->bench);
		break;
	case VK_DOC_COMPARE:
		vk_report_compare_ktap(k, d->compare);
		break;
	case VK_DOC_INFO:
		vk_report_info_ktap(k, d->info);
		break;
	case VK_DOC_SUMMARY:
		vk_report_summary_ktap(k, d->summary);
		break;
	case VK_DOC_APIS:
	case VK_DOC_SKIPPED:
		vk_ktap_begin(k);
		vk_ktap_line(k, "1..0 # SKIP %s", d->kind == VK_DOC_SKIPPED && d->skipped ?
			     d->skipped : "nothing ran");
		break;
	}
}

void vk_report_ktap_doc(FILE *f, const struct vk_doc *d)
{
	vk_ktap_doc(&(const struct vk_ktap){ .f = f }, d);
}
