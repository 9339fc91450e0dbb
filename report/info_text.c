// SPDX-License-Identifier: MIT
/* Prints info's facts as text and as KTAP. */
#include <inttypes.h>
#include <stdint.h>

#include "report/info.h"
#include "report/ktap.h"
#include "report/safe.h"

const char *vk_report_symver(char *buf, size_t len, const struct vk_elf_sym *s)
{
	snprintf(buf, len, "%s%s%s", s->name, s->version ? (s->hidden ? "@" : "@@") : "",
		 s->version ? s->version : "");
	return buf;
}

const char *vk_report_tristate(enum vk_tristate t)
{
	return t == VK_YES ? "yes" : t == VK_NO ? "no" : "unknown";
}

static void print_system(FILE *f, const struct vk_info *in)
{
	const struct vk_sysinfo *s = &in->sys;

	fprintf(f, "vdsokit %s\n", in->version);
	fprintf(f, "kernel:        %s %s %s\n", vk_safe(s->uts.sysname),
		vk_safe(s->uts.release), vk_safe(s->uts.machine));
	fprintf(f, "build:         %s\n", in->build_abi);
	fprintf(f, "clocksource:   %s (available: %s)\n",
		s->clocksource[0] ? vk_safe(s->clocksource) : "unknown",
		s->clocksources[0] ? vk_safe(s->clocksources) : "unknown");
	fprintf(f, "  vDSO-capable: %s: %s\n", vk_report_tristate(s->cs_vdso), vk_safe(s->cs_note));
	fprintf(f, "time namespace: %s", s->timens == VK_YES ? "non-initial" :
					 s->timens_kernel == VK_NO ? "none" :
					 s->timens == VK_NO ? "initial" : "unknown");
	if (s->have_offsets)
		fprintf(f, " (offsets: monotonic %lld.%09lld s, boottime %lld.%09lld s)",
			s->mono_offset[0], s->mono_offset[1], s->boot_offset[0],
			s->boot_offset[1]);
	fprintf(f, ": %s\n", vk_safe(s->timens_note));
	fprintf(f, "vsyscall:      %s: %s\n", vk_vsyscall_mode_name(in->vsyscall.mode),
		in->vsyscall.note);
}

static void print_image(FILE *f, const struct vk_info *in)
{
	const struct vk_image *im = in->im;
	const struct vk_elf *e = &im->elf;
	struct vk_elf_verdef v;

	if (im->live)
		fprintf(f, "vDSO:          at %p (AT_SYSINFO_EHDR), %zu bytes\n",
			(const void *)e->base, in->size);
	else
		fprintf(f, "vDSO:          %s, %zu bytes\n", vk_safe(im->source), in->size);
	fprintf(f, "  ELF:         ELF%d %s-endian %s (machine %u)\n", e->is64 ? 64 : 32,
		e->big_endian ? "big" : "little",
		vk_elf_machine_name(e->machine), e->machine);
	if (im->arch)
		fprintf(f, "  ABI:         %s: %s* symbols at version %s\n", im->arch->name,
			im->arch->prefix, im->arch->version);
	else
		fprintf(f, "  ABI:         not in vdsokit's table: functions are not looked up\n");
	fprintf(f, "  soname:      %s\n", e->soname ? vk_safe(e->soname) : "(none)");
	fprintf(f, "  Linux note:  %s\n", in->linux_note[0] ? vk_safe(in->linux_note) : "(none)");
	fprintf(f, "  build-id:    %s\n", in->build_id[0] ? vk_safe(in->build_id) : "(none)");
	fprintf(f, "  hash tables:%s%s%s; symbols found through %s\n",
		e->gnu_hash.size ? " DT_GNU_HASH" : "", e->hash.size ? " DT_HASH" : "",
		e->gnu_hash.size || e->hash.size ? "" : " none",
		vk_elf_symsrc_name(e->symsrc));
	if (in->hash_problem[0])
		fprintf(f, "  hash problem: %s\n", vk_safe(in->hash_problem));
	if (e->warn[0])
		fprintf(f, "  warning:     %s\n", vk_safe(e->warn));
	fprintf(f, "  versions:   ");
	for (size_t i = 0; vk_elf_verdef(e, i, &v) == 0; i++)
		fprintf(f, " %s%s", vk_safe(v.name), v.flags & 1 ? " (base)" : "");
	fprintf(f, "%s\n", e->verdefnum ? "" : " (unversioned)");
}

static void print_funcs(FILE *f, const struct vk_info *in)
{
	char buf[128];

	fprintf(f, "\nfunctions:\n");
	for (int i = 0; i < VK_NALLFUNCS; i++) {
		const struct vk_info_func *fn = &in->funcs[i];
		const char *name = vk_funcs[fn->id].name;

		if (!fn->applies)
			continue;
		if (fn->f.found)
			fprintf(f, "  %-20s %-34s %s\n", name,
				vk_safe(vk_report_symver(buf, sizeof(buf), &fn->f.sym)), fn->runs);
		else if (fn->f.wrong_version)
			fprintf(f, "  %-20s absent at %s: only %s\n", name, fn->f.want_version,
				vk_safe(vk_report_symver(buf, sizeof(buf), &fn->f.sym)));
		else
			fprintf(f, "  %-20s absent: %s (%s@%s)\n", name, fn->absent, fn->f.want,
				fn->f.want_version);
	}
	if (in->nulled)
		fprintf(f, "  (%d nameless function symbols: entries nulled out in place, as arm's kernel does without an architected timer)\n",
			in->nulled);
	for (int i = 0; i < VK_NALLFUNCS; i++) {
		if (in->funcs[i].follows)
			fprintf(f, "  so: %s\n", vk_safe(in->funcs[i].follows));
	}
}

/* Only a 32-bit image has entries that are not y2038-safe. */
static void print_y2038(FILE *f, const struct vk_info *in)
{
	if (in->im->elf.is64)
		return;
	fprintf(f, "\ny2038:\n");
	for (int i = 0; i < VK_NFUNCS; i++) {
		const struct vk_info_func *fn = &in->funcs[i];

		if (fn->applies && fn->y2038)
			fprintf(f, "  %-20s %s%s\n", vk_funcs[fn->id].name, fn->y2038,
				fn->f.found ? "" : " (not exported)");
	}
}

static void print_symbols(FILE *f, const struct vk_elf *e)
{
	struct vk_elf_sym s;
	char buf[128];

	fprintf(f, "\nsymbols (%zu):\n  %5s  %-18s %6s %-7s %-7s %s\n", e->nsyms ? e->nsyms - 1 : 0,
		"index", "value", "size", "type", "bind", "name");
	for (size_t i = 1; i < e->nsyms; i++) {
		if (vk_elf_sym(e, i, &s)) {
			fprintf(f, "  %5zu  (malformed symbol)\n", i);
			continue;
		}
		fprintf(f, "  %5zu  %#-18" PRIx64 " %6" PRIu64 " %-7s %-7s %s\n", i, s.value, s.size,
			vk_elf_sym_type_name(s.type), vk_elf_sym_bind_name(s.bind),
			vk_safe(vk_report_symver(buf, sizeof(buf), &s)));
	}
}

void vk_report_info_text(const struct vk_out *o, const struct vk_info *in)
{
	FILE *f = o->f;

	print_system(f, in);
	if (!in->im) {
		fprintf(f, "vDSO:          none: %s\n", in->no_image);
		return;
	}
	print_image(f, in);
	print_funcs(f, in);
	print_y2038(f, in);
	print_symbols(f, &in->im->elf);
}

void vk_report_info_ktap(const struct vk_out *k, const struct vk_info *in)
{
	size_t done = 0;

	vk_ktap_header(k);
	vk_ktap_diag(k, "vdsokit %s info", in->version);
	vk_ktap_plan(k, in->napply);
	for (int i = 0; i < VK_NALLFUNCS; i++) {
		const struct vk_info_func *fn = &in->funcs[i];
		char why[160];

		if (!fn->applies)
			continue;
		if (fn->time32_off)
			snprintf(why, sizeof(why), "%s: no %s", fn->absent, fn->f.want);
		else
			snprintf(why, sizeof(why), "the vDSO does not export %s", fn->f.want);
		vk_ktap_result(k, fn->f.found ? VK_KTAP_PASS : VK_KTAP_SKIP, ++done, why, "%s",
			       vk_funcs[i].name);
		if (fn->f.found && fn->runs[0])
			vk_ktap_diag(k, "%s", fn->runs);
	}
}
