// SPDX-License-Identifier: MIT
/* Prints list-apis: the API table beside one vDSO image, in each format. */
#include "report/apis.h"
#include "report/doc.h"
#include "report/out.h"
#include "report/safe.h"

static const char *status(const struct vk_api_list *l, const struct vk_api_row *r)
{
	if (!l->image)
		return "no vDSO";
	if (r->f.found)
		return "exported";
	if (r->time32_off)
		return "not built: CONFIG_COMPAT_32BIT_TIME=n";
	return r->f.wrong_version ? "wrong version" : "absent";
}

/* The ABI's number, never this build's for another ABI's image. */
static void syscall_name(char *buf, size_t len, const struct vk_api_list *l,
			 const struct vk_api_row *r)
{
	const struct vk_func_info *fn = &vk_funcs[r->api->func];

	if (!fn->syscall)
		snprintf(buf, len, "-");
	else if (!l->sysno)
		snprintf(buf, len, "%s(?)", fn->syscall);
	else if (l->sysno[r->api->func] < 0)
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "%s(%ld)", fn->syscall, l->sysno[r->api->func]);
}

void vk_report_apis_text(const struct vk_out *o, const struct vk_api_list *l)
{
	FILE *f = o->f;
	char sys[48];

	fprintf(f, "%-34s %-30s %5s %-38s %-14s %-24s %s\n", "API", "function", "clock",
		"symbol", "libc", "syscall", "vDSO");
	for (size_t i = 0; i < l->n; i++) {
		const struct vk_api_row *r = &l->rows[i];
		const struct vk_func_info *fn = &vk_funcs[r->api->func];

		syscall_name(sys, sizeof(sys), l, r);
		fprintf(f, "%-34s %-30s ", r->api->name, fn->name);
		if (r->api->clock >= 0)
			fprintf(f, "%5d ", r->api->clock);
		else
			fprintf(f, "%5s ", "-");
		fprintf(f, "%-38s %-14s %-24s %s\n", r->f.want[0] ? r->f.want : "?",
			fn->libc ? fn->libc : "-", sys,
			status(l, r));
	}
	fprintf(f, "\n%zu APIs for the %s ABI%s%s\n", l->n, l->abi ? l->abi : "unknown",
		l->image ? "; vDSO: " : "", l->image ? vk_safe(l->image) : "");
	if (!l->sysno)
		fprintf(f, "syscall numbers (?): not known for the %s ABI\n",
			l->abi ? l->abi : "unknown");
}

void vk_report_apis_json(const struct vk_out *o, const struct vk_api_list *l)
{
	FILE *f = o->f;
	const struct vk_envelope d = { .command = "list-apis", .version = 1, .tool_version = l->version,
				       .sys = l->sys };
	struct vk_json j;

	vk_json_init(&j, f);
	vk_doc_begin(&j, NULL, &d);
	vk_json_str(&j, "image", l->image);
	vk_json_str(&j, "abi", l->abi);
	vk_json_array(&j, "apis");
	for (size_t i = 0; i < l->n; i++) {
		const struct vk_api_row *r = &l->rows[i];
		const struct vk_func_info *fn = &vk_funcs[r->api->func];
		long nr = !fn->syscall ? -1 : l->sysno ? l->sysno[r->api->func] : -2;

		vk_json_object(&j, NULL);
		vk_json_str(&j, "name", r->api->name);
		vk_json_str(&j, "function", fn->name);
		if (r->api->clock >= 0)
			vk_json_int(&j, "clock", r->api->clock);
		vk_json_str(&j, "symbol", r->f.want[0] ? r->f.want : NULL);
		vk_json_str(&j, "version", r->f.want_version);
		vk_json_str(&j, "libc", fn->libc);
		/* Without the ABI's numbers: the syscall's name, no number. */
		vk_json_str(&j, "syscall", nr < -1 || nr >= 0 ? fn->syscall : NULL);
		if (nr >= 0)
			vk_json_int(&j, "sysno", nr);
		vk_json_str(&j, "status", status(l, r));
		vk_json_end(&j);
	}
	vk_json_end(&j);
	vk_json_end(&j);
}
