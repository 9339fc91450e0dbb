// SPDX-License-Identifier: MIT
/*
 * inspect's document in text, KTAP and JSON: per function, the image's
 * checks, and an A/B's differences.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report/doc.h"
#include "report/inspect.h"
#include "report/out.h"
#include "report/safe.h"

static const char *const kind_names[VK_INSP_NKINDS] = {
	[VK_INSP_INDIRECT] = "indirect", [VK_INSP_CALL] = "call",
	[VK_INSP_SYSCALL] = "syscall", [VK_INSP_BARRIER] = "barrier",
	[VK_INSP_COUNTER] = "counter", [VK_INSP_PROBE] = "probe",
};

/* The kinds whose every site text prints; barriers and counter reads
 * print as the function's tally. */
static const enum vk_insp_kind listed[] = { VK_INSP_INDIRECT, VK_INSP_PROBE, VK_INSP_SYSCALL,
					    VK_INSP_CALL };

static const char *status_name(enum vk_insp_status s)
{
	return s == VK_INSP_PASS ? "PASS" : s == VK_INSP_FAIL ? "FAIL" : "SKIP";
}

static void text_sites(FILE *f, const struct vk_insp_func *fn)
{
	for (size_t k = 0; k < sizeof(listed) / sizeof(listed[0]); k++) {
		enum vk_insp_kind kind = listed[k];
		size_t n = fn->count[kind] < VK_INSP_SITES ? fn->count[kind] : VK_INSP_SITES;

		for (size_t i = 0; i < n; i++) {
			const struct vk_insp_site *s = &fn->site[kind][i];

			fprintf(f, "    %-8s %#" PRIx64 "  %s%s%s%s\n", kind_names[kind], s->addr,
				vk_safe(s->text), s->what[0] ? " (" : "", vk_safe(s->what),
				s->what[0] ? ")" : "");
		}
		if (fn->count[kind] > n)
			fprintf(f, "    %-8s ... %zu more\n", kind_names[kind], fn->count[kind] - n);
	}
}

static void text_image(FILE *f, const struct vk_inspect *in)
{
	fprintf(f, "%s: %s, disassembled as %s\n\n", vk_safe(in->source), in->arch, in->triple);
	fprintf(f, "%-28s %6s %6s %6s %4s %4s %4s  %s\n", "function", "bytes", "insns", "frame",
		"ind", "call", "sys", "barriers and counter reads");
	for (size_t i = 0; i < in->nfuncs; i++) {
		const struct vk_insp_func *fn = &in->funcs[i];

		fprintf(f, "%-28s %5" PRIu64 "%s %6zu %6" PRIu64 " %4zu %4zu %4zu  %s\n",
			vk_safe(fn->name), fn->size, fn->size_guessed ? "?" : " ", fn->insns,
			fn->frame, fn->count[VK_INSP_INDIRECT], fn->count[VK_INSP_CALL],
			fn->count[VK_INSP_SYSCALL], fn->fences[0] ? fn->fences : "-");
		if (fn->undecoded)
			fprintf(f, "    %zu places LLVM could not decode (data, padding)\n",
				fn->undecoded);
		text_sites(f, fn);
	}
	if (in->more_funcs)
		fprintf(f, "(%zu more functions not read)\n", in->more_funcs);
	fprintf(f, "\nChecks:\n");
	for (size_t i = 0; i < VK_INSP_NCHECKS; i++)
		fprintf(f, "  %s  %s: %s\n", status_name(in->check[i].status), in->check[i].name,
			vk_safe(in->check[i].detail));
	fprintf(f, "%zu passed, %zu failed, %zu skipped\n",
		(size_t)VK_INSP_NCHECKS - in->fails - in->skips, in->fails, in->skips);
}

static void text_diff(FILE *f, const struct vk_inspect_report *r)
{
	const struct vk_inspect *a = r->img[0], *b = r->img[1];

	fprintf(f, "\nB against A: %s against %s (%zu of %zu functions differ)\n",
		vk_safe(b->source), vk_safe(a->source), r->diff->changed, r->diff->n);
	fprintf(f, "  %-26s %13s %11s %7s %7s  %s\n", "function", "bytes A>B", "frame A>B",
		"ind A>B", "sys A>B", "barriers and counter reads");
	for (size_t i = 0; i < r->diff->n; i++) {
		const struct vk_insp_diff_row *d = &r->diff->rows[i];
		const struct vk_insp_func *fa = d->a >= 0 ? &a->funcs[d->a] : NULL;
		const struct vk_insp_func *fb = d->b >= 0 ? &b->funcs[d->b] : NULL;

		if (!fa || !fb) {
			fprintf(f, "%c %-26s only in %s\n", '*', vk_safe(d->name), fa ? "A" : "B");
			continue;
		}
		fprintf(f, "%c %-26s %6" PRIu64 ">%-6" PRIu64 " %5" PRIu64 ">%-5" PRIu64
			   " %3zu>%-3zu %3zu>%-3zu  %s\n",
			d->changed ? '*' : ' ', vk_safe(d->name), fa->size, fb->size, fa->frame,
			fb->frame, fa->count[VK_INSP_INDIRECT], fb->count[VK_INSP_INDIRECT],
			fa->count[VK_INSP_SYSCALL], fb->count[VK_INSP_SYSCALL],
			fa->fences[0] ? fa->fences : "-");
		if (strcmp(fa->fences, fb->fences))
			fprintf(f, "  %-26s %*s> %s\n", "", 45, "", fb->fences[0] ? fb->fences : "-");
	}
}

void vk_report_inspect_text(const struct vk_out *o, const struct vk_inspect_report *r)
{
	for (size_t i = 0; i < r->n; i++) {
		if (i)
			fprintf(o->f, "\n");
		if (r->n > 1)
			fprintf(o->f, "%s: ", i ? "B" : "A");
		text_image(o->f, r->img[i]);
	}
	if (r->diff)
		text_diff(o->f, r);
}

static void json_func(struct vk_json *j, const struct vk_insp_func *fn)
{
	vk_json_object(j, NULL);
	vk_json_str(j, "name", fn->name);
	vk_json_str(j, "version", fn->version[0] ? fn->version : NULL);
	vk_json_uint(j, "address", fn->addr);
	vk_json_uint(j, "size", fn->size);
	vk_json_bool(j, "size_guessed", fn->size_guessed);
	vk_json_uint(j, "instructions", fn->insns);
	vk_json_uint(j, "undecoded", fn->undecoded);
	vk_json_uint(j, "frame", fn->frame);
	vk_json_str(j, "barriers_and_counters", fn->fences);
	vk_json_object(j, "sites");
	for (size_t k = 0; k < VK_INSP_NKINDS; k++) {
		size_t n = fn->count[k] < VK_INSP_SITES ? fn->count[k] : VK_INSP_SITES;

		vk_json_object(j, kind_names[k]);
		vk_json_uint(j, "count", fn->count[k]);
		vk_json_array(j, "listed");
		for (size_t i = 0; i < n; i++) {
			vk_json_object(j, NULL);
			vk_json_uint(j, "address", fn->site[k][i].addr);
			vk_json_str(j, "instruction", fn->site[k][i].text);
			vk_json_str(j, "what", fn->site[k][i].what[0] ? fn->site[k][i].what : NULL);
			vk_json_end(j);
		}
		vk_json_end(j);
		vk_json_end(j);
	}
	vk_json_end(j);
	vk_json_end(j);
}

static void json_image(struct vk_json *j, const struct vk_inspect *in)
{
	static const char *const st[] = { "pass", "fail", "skip" };

	vk_json_object(j, NULL);
	vk_json_str(j, "source", in->source);
	vk_json_str(j, "arch", in->arch);
	vk_json_str(j, "triple", in->triple);
	vk_json_array(j, "functions");
	for (size_t i = 0; i < in->nfuncs; i++)
		json_func(j, &in->funcs[i]);
	vk_json_end(j);
	vk_json_uint(j, "functions_not_read", in->more_funcs);
	vk_json_array(j, "checks");
	for (size_t i = 0; i < VK_INSP_NCHECKS; i++) {
		vk_json_object(j, NULL);
		vk_json_str(j, "name", in->check[i].name);
		vk_json_str(j, "status", st[in->check[i].status]);
		vk_json_str(j, "detail", in->check[i].detail);
		vk_json_end(j);
	}
	vk_json_end(j);
	vk_json_object(j, "totals");
	vk_json_uint(j, "pass", VK_INSP_NCHECKS - in->fails - in->skips);
	vk_json_uint(j, "fail", in->fails);
	vk_json_uint(j, "skip", in->skips);
	vk_json_end(j);
	vk_json_end(j);
}

void vk_report_inspect_json(const struct vk_out *o, const struct vk_inspect_report *r)
{
	const struct vk_envelope d = { .command = "inspect", .version = 1,
				       .tool_version = r->version, .sys = r->sys };
	struct vk_json j;

	vk_json_init(&j, o->f);
	vk_doc_begin(&j, NULL, &d);
	vk_json_array(&j, "images");
	for (size_t i = 0; i < r->n; i++)
		json_image(&j, r->img[i]);
	vk_json_end(&j);
	if (r->diff) {
		vk_json_array(&j, "diff");
		for (size_t i = 0; i < r->diff->n; i++) {
			const struct vk_insp_diff_row *row = &r->diff->rows[i];

			vk_json_object(&j, NULL);
			vk_json_str(&j, "function", row->name);
			vk_json_bool(&j, "in_a", row->a >= 0);
			vk_json_bool(&j, "in_b", row->b >= 0);
			vk_json_bool(&j, "changed", row->changed);
			vk_json_end(&j);
		}
		vk_json_end(&j);
	}
	vk_json_end(&j);
}
