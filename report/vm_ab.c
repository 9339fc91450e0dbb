// SPDX-License-Identifier: MIT
/* Prints what vm's A/B found to differ in kind between two kernels. */
#include "report/safe.h"
#include "report/vm_ab.h"

void vk_report_ab(FILE *f, const struct vk_ab *ab)
{
	fprintf(f, "A: %s (%s)\nB: %s (%s)\n%s, %lu round%s of A B%s\n\n", ab->kernel[0],
		vk_safe(ab->release[0]), ab->kernel[1], vk_safe(ab->release[1]), ab->arch, ab->rounds,
		ab->rounds == 1 ? "" : "s", ab->emulated ? ", under TCG (emulated)" : ", under KVM");
	fprintf(f, "differences in kind: %zu", ab->total);
	if (ab->worse || ab->better)
		fprintf(f, ": %d regression%s, %d improvement%s", ab->worse, ab->worse == 1 ? "" : "s",
			ab->better, ab->better == 1 ? "" : "s");
	fprintf(f, "\n");
	for (size_t i = 0; i < ab->ndiffs; i++) {
		const struct vk_ab_diff *d = &ab->diffs[i];

		/* What differs comes from the guests' output. */
		fprintf(f, "  %-11s %s: A %s, B %s%s%s\n", d->kind, vk_safe(d->what), vk_safe(d->a),
			vk_safe(d->b), d->verdict == VK_AB_CHANGE ? "" : ": ",
			vk_ab_verdict_name(d->verdict));
	}
	if (ab->ndiffs < ab->total)
		fprintf(f, "  ... and %zu more\n", ab->total - ab->ndiffs);
	if (ab->worse)
		fprintf(f, "B regresses in kind: a failure, whatever its speed\n");
	if (!ab->bench[0]) {
		fprintf(f, "\nperformance: bench could not time calls on one of the kernels (it said why)\n");
		return;
	}
	fprintf(f, "\nbench files: %s %s\n", ab->bench[0], ab->bench[1]);
	if (ab->emulated)
		fprintf(f, "performance: no verdict under TCG, whose figures are emulated; compare\n"
			   "the kernels under KVM or on hardware (vdsokit compare A.json B.json).\n");
}

size_t vk_report_ab_failed(FILE *f, const struct vk_compare_runs *const runs[2])
{
	static const char *const label[2] = { "A", "B" };
	size_t n = 0;

	for (int k = 0; k < 2; k++) {
		for (size_t i = 0; i < runs[k]->n; i++) {
			const struct vk_series *r = &runs[k]->s[i];

			if (!r->failed)
				continue;
			fprintf(f, "%sbench %s %s: no figure, no verdict: on kernel %s, %s\n", n ? "" : "\n",
				vk_safe(r->api), vk_safe(r->path), label[k],
				vk_safe(r->skipped ? r->skipped : "its calls failed"));
			n++;
		}
	}
	return n;
}
