// SPDX-License-Identifier: MIT
/*
 * CSV: bench's figures, a row per API and path under one header line, as
 * a spreadsheet or a plotting script reads them. Only bench's document
 * is a table; the other kinds have no CSV.
 */
#include <math.h>

#include "core/base/array.h"
#include "core/benchfile/model.h"
#include "report/format.h"
#include "report/out.h"

/* An empty field where one process left no spread to measure. */
static void csv_num(FILE *f, double x)
{
	if (isfinite(x))
		fprintf(f, "%.2f", x);
	fputc(',', f);
}

static void csv_row(FILE *f, const struct vk_bench_result *r)
{
	const double x[] = { r->median, r->min, r->ci_lo, r->ci_hi, r->cv, r->p90, r->p99 };

	fprintf(f, "%s,%s,", r->api, vk_path_name(r->path));
	for (size_t i = 0; i < ARRAY_SIZE(x); i++)
		csv_num(f, x[i]);
	fprintf(f, "%d,%lu,%d,,\n", r->n, r->batch, r->multimodal);
}

static void bench(const struct vk_out *o, const struct vk_bench_report *rep)
{
	FILE *f = o->f;

	fprintf(f, "api,path,median_ns,min_ns,ci95_low_ns,ci95_high_ns,cv_pct,p90_ns,p99_ns,samples,batch,multimodal,skipped,failed\n");
	for (size_t i = 0; i < rep->n; i++) {
		const struct vk_bench_result *r = &rep->r[i];

		/* A row whose calls failed, or whose worker died, is no skip. */
		if (r->failed || r->crashed)
			fprintf(f, "%s,%s,,,,,,,,,,,,\"%s\"\n", r->api, vk_path_name(r->path), r->skipped);
		else if (r->skipped)
			fprintf(f, "%s,%s,,,,,,,,,,,\"%s\",\n", r->api, vk_path_name(r->path), r->skipped);
		else
			csv_row(f, r);
	}
}

const struct vk_formatter vk_formatter_csv = { .name = "csv", .bench = bench };
