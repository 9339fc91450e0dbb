// SPDX-License-Identifier: MIT
/*
 * Markdown: compare's rows as a before, after and ratio table, to paste
 * into a commit message; the other kinds have no Markdown.
 */
#include "report/compare.h"
#include "report/format.h"
#include "report/out.h"
#include "report/safe.h"

/* A before, after and ratio table for a commit message. */
static void compare(const struct vk_out *o, const struct vk_compare_report *c)
{
	FILE *f = o->f;
	char line[VK_COMPARE_ONELINE];

	fprintf(f, "| API | path | before (ns) | after (ns) | after/before | verdict |\n"
		   "|---|---|---:|---:|---:|---|\n");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct vk_compare_row *r = &c->rows[i];

		fprintf(f, "| %s | %s | %.2f | %.2f | %.3f | %s |\n", vk_safe(r->old->api),
			vk_safe(r->old->path), r->old_med, r->new_med, r->med_ratio, r->verdict);
	}
	for (size_t i = 0; i < c->nfailed; i++)
		fprintf(f, "| %s | %s | | | | %s side: %s |\n", vk_safe(c->failed[i].api),
			vk_safe(c->failed[i].path), c->failed[i].side, c->failed[i].why);
	fprintf(f, "\n%s\n", vk_report_compare_oneline(line, sizeof(line), c));
}

const struct vk_formatter vk_formatter_markdown = { .name = "markdown", .compare = compare };
