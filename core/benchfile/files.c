// SPDX-License-Identifier: MIT
/* compare's files: the runs of each side read and merged, then compared row by row. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/benchfile/benchfile.h"

int vk_compare_files_read(char *const *paths, int nold, int nnew, struct vk_compare_files *d,
			  void (*say)(const struct vk_bf_mismatch *m, void *ctx), void *ctx,
			  struct vk_bf_err *e)
{
	struct vk_compare_report *rep = d->rep;
	struct vk_compare_runs *a = &d->a, *b = &d->b;
	int status = vk_compare_read_runs(paths, nold, a, e) ||
		     vk_compare_read_runs(paths + nold, nnew, b, e) ||
		     vk_compare_same_length(a->f, a->nf, b->f, b->nf, e);

	rep->old = a->names ? a->names : paths[0];
	rep->new = b->names ? b->names : paths[nold];
	rep->old_runs = nold;
	rep->new_runs = nnew;
	if (status)
		return -1;
	d->failed = calloc(a->n + b->n + 1, sizeof(*d->failed));
	if (!d->failed) {
		snprintf(e->msg, sizeof(e->msg), "%s", strerror(ENOMEM));
		return -1;
	}
	vk_compare_runs_context(rep, a, b, say, ctx);
	vk_compare_failed_rows(rep, d->failed, a->s, a->n, b->s, b->n);
	return vk_compare_rows(rep, &d->rows, a->s, a->n, b->s, b->n, e);
}

void vk_compare_files_free(struct vk_compare_files *d)
{
	free(d->failed);
	free(d->rows);
	vk_compare_free_runs(&d->a);
	vk_compare_free_runs(&d->b);
}
