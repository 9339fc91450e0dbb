// SPDX-License-Identifier: MIT
/* Prints info's facts as JSON (doc/json-schema/info.json). */
#include <stdint.h>

#include "report/info.h"
#include "report/doc.h"
#include "report/out.h"

static void json_system(struct vk_json *j, const struct vk_info *in)
{
	const struct vk_sysinfo *s = &in->sys;

	vk_json_str(j, "kernel_version", s->uts.version);
	vk_json_object(j, "clocksource");
	vk_json_str(j, "current", s->clocksource[0] ? s->clocksource : NULL);
	vk_json_str(j, "available", s->clocksources[0] ? s->clocksources : NULL);
	vk_json_str(j, "vdso_capable", vk_report_tristate(s->cs_vdso));
	vk_json_str(j, "note", s->cs_note);
	vk_json_end(j);
	vk_json_object(j, "time_namespace");
	vk_json_str(j, "non_initial", vk_report_tristate(s->timens));
	vk_json_str(j, "supported", vk_report_tristate(s->timens_kernel));
	vk_json_str(j, "can_make", vk_report_tristate(s->timens_new));
	vk_json_str(j, "note", s->timens_note);
	if (s->have_offsets) {
		vk_json_double(j, "monotonic_offset", s->mono_offset[0] + s->mono_offset[1] / 1e9);
		vk_json_double(j, "boottime_offset", s->boot_offset[0] + s->boot_offset[1] / 1e9);
	}
	vk_json_end(j);
	vk_json_object(j, "vsyscall");
	vk_json_str(j, "mode", vk_vsyscall_mode_name(in->vsyscall.mode));
	vk_json_str(j, "readable", vk_report_tristate(in->vsyscall.readable));
	vk_json_str(j, "note", in->vsyscall.note);
	vk_json_end(j);
}

static void json_sym(struct vk_json *j, const char *key, const struct vk_elf_sym *s)
{
	vk_json_object(j, key);
	vk_json_str(j, "name", s->name);
	vk_json_str(j, "version", s->version);
	vk_json_bool(j, "hidden", s->hidden);
	vk_json_uint(j, "index", s->index);
	vk_json_uint(j, "value", s->value);
	vk_json_uint(j, "size", s->size);
	vk_json_str(j, "type", vk_elf_sym_type_name(s->type));
	vk_json_str(j, "bind", vk_elf_sym_bind_name(s->bind));
	vk_json_end(j);
}

static void json_image(struct vk_json *j, const struct vk_info *in)
{
	const struct vk_elf *e = &in->im->elf;
	struct vk_elf_verdef v;

	vk_json_str(j, "source", in->im->source);
	if (in->im->live)
		vk_json_uint(j, "base", (uintptr_t)e->base);
	vk_json_uint(j, "size", in->size);
	vk_json_int(j, "class", e->is64 ? 64 : 32);
	vk_json_str(j, "byte_order", e->big_endian ? "big" : "little");
	vk_json_uint(j, "machine", e->machine);
	vk_json_str(j, "machine_name", vk_elf_machine_name(e->machine));
	vk_json_str(j, "abi", in->im->arch ? in->im->arch->name : NULL);
	vk_json_str(j, "soname", e->soname);
	vk_json_str(j, "linux_note", in->linux_note[0] ? in->linux_note : NULL);
	vk_json_str(j, "build_id", in->build_id[0] ? in->build_id : NULL);
	vk_json_array(j, "hash_tables");
	if (e->gnu_hash.size)
		vk_json_str(j, NULL, "DT_GNU_HASH");
	if (e->hash.size)
		vk_json_str(j, NULL, "DT_HASH");
	vk_json_end(j);
	vk_json_str(j, "symbols_from", vk_elf_symsrc_name(e->symsrc));
	vk_json_str(j, "hash_problem", in->hash_problem[0] ? in->hash_problem : NULL);
	vk_json_str(j, "warning", e->warn[0] ? e->warn : NULL);
	vk_json_array(j, "versions");
	for (size_t i = 0; vk_elf_verdef(e, i, &v) == 0; i++) {
		vk_json_object(j, NULL);
		vk_json_str(j, "name", v.name);
		vk_json_uint(j, "index", v.index);
		vk_json_bool(j, "base", v.flags & 1);
		vk_json_end(j);
	}
	vk_json_end(j);
}

static void json_funcs(struct vk_json *j, const struct vk_info *in)
{
	vk_json_array(j, "functions");
	for (int i = 0; i < VK_NALLFUNCS; i++) {
		const struct vk_info_func *fn = &in->funcs[i];

		if (!fn->applies)
			continue;
		vk_json_object(j, NULL);
		vk_json_str(j, "function", vk_funcs[fn->id].name);
		vk_json_str(j, "wanted", fn->f.want);
		vk_json_str(j, "wanted_version", fn->f.want_version);
		vk_json_bool(j, "found", fn->f.found);
		if (fn->f.found || fn->f.wrong_version)
			json_sym(j, "symbol", &fn->f.sym);
		vk_json_str(j, "runs", fn->runs[0] ? fn->runs : NULL);
		vk_json_str(j, "y2038", fn->y2038);
		vk_json_str(j, "absent", fn->absent);
		vk_json_str(j, "follows", fn->follows);
		vk_json_end(j);
	}
	vk_json_end(j);
}

static void json_symbols(struct vk_json *j, const struct vk_elf *e)
{
	struct vk_elf_sym s;

	vk_json_array(j, "symbols");
	for (size_t i = 1; i < e->nsyms; i++) {
		if (vk_elf_sym(e, i, &s) == 0)
			json_sym(j, NULL, &s);
	}
	vk_json_end(j);
}

void vk_report_info_json(const struct vk_out *o, const struct vk_info *in)
{
	FILE *f = o->f;
	const struct vk_envelope d = { .command = "info", .version = 1, .tool_version = in->version,
				  .build = in->build_abi, .release = in->sys.uts.release,
				  .machine = in->sys.uts.machine, .clocksource = in->sys.clocksource };
	struct vk_json j;

	vk_json_init(&j, f);
	vk_doc_begin(&j, NULL, &d);
	json_system(&j, in);
	vk_json_object(&j, "vdso");
	vk_json_bool(&j, "present", in->im != NULL);
	if (in->im) {
		json_image(&j, in);
		json_funcs(&j, in);
		vk_json_int(&j, "nulled_symbols", in->nulled);
		json_symbols(&j, &in->im->elf);
	} else {
		vk_json_str(&j, "reason", in->no_image);
	}
	vk_json_end(&j);
	vk_json_end(&j);
}
