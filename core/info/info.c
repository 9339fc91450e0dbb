// SPDX-License-Identifier: MIT
/*
 * Reads what `vdsokit info` reports (info.h): the image's notes, hash
 * tables and functions, and the system's clocksource, time namespaces and
 * vsyscall page.
 */
#include <stdio.h>
#include <string.h>

#include "core/fallback/fallback.h"
#include "core/info/info.h"

#define NT_GNU_BUILD_ID_TYPE 3

static void read_notes(struct vk_info *in, const struct vk_elf *e)
{
	struct vk_elf_note n;
	uint32_t code;

	if (vk_elf_linux_version(e, &code) == 0)
		snprintf(in->linux_note, sizeof(in->linux_note), "%u.%u.%u", code >> 16,
			 (code >> 8) & 0xff, code & 0xff);
	if (vk_elf_find_note(e, "GNU", NT_GNU_BUILD_ID_TYPE, &n) == 0) {
		for (size_t i = 0; i < n.descsz && i < 64; i++)
			sprintf(in->build_id + 2 * i, "%02x", n.desc[i]);
	}
}

/* Whether the clocksource serves the vDSO, seen in this process's vDSO
 * (no clock_gettime: no) or measured there where the table does not know
 * it, whatever image info reads. */
static void measure_clocksource(struct vk_info *in)
{
	struct vk_callset cs;
	struct vk_image live;
	char err[64];
	int have;

	have = vk_image_open_live(&live) == 0;
	/* With no library to load, this cannot fail. */
	vk_callset_init(&cs, have ? &live : NULL, NULL, err, sizeof(err));
	vk_fallback_clocksource(have ? &cs : NULL, &in->sys);
	if (have)
		vk_image_close(&live);
}

/* Where the live vDSO's functions run, by fallback's probe (MONOTONIC for
 * the clock functions). */
static void probe_fallbacks(struct vk_info *in, const struct vk_image *im)
{
	struct vk_callset cs;
	struct vk_fallback fb;
	char err[64];

	if (!im->live || vk_fallback_unsupported() || vk_callset_init(&cs, im, NULL, err, sizeof(err)))
		return;
	for (int i = 0; i < VK_NFUNCS; i++) {
		struct vk_info_func *fn = &in->funcs[i];

		if (!fn->applies || !fn->f.found)
			continue;
		vk_fallback_probe(&cs, VK_PATH_VDSO, i, CLOCK_MONOTONIC, &fb);
		fn->ran = fb.kind == VK_USERSPACE ? VK_RAN_USERSPACE :
			  fb.kind == VK_SYSCALL ? VK_RAN_SYSCALL : VK_RAN_UNKNOWN;
		if (fb.kind == VK_USERSPACE)
			snprintf(fn->runs, sizeof(fn->runs), "userspace");
		else if (fb.kind == VK_SYSCALL)
			snprintf(fn->runs, sizeof(fn->runs), "falls back to %s: %s", fb.syscall,
				 vk_fallback_reason(VK_PATH_VDSO, i, CLOCK_MONOTONIC,
						    in->sys.cs_vdso));
		else if (fb.kind == VK_PROBE_NOT_RUN)
			snprintf(fn->runs, sizeof(fn->runs), "unknown: not probed: %s", fb.why);
		else
			snprintf(fn->runs, sizeof(fn->runs), "unknown: the probe %.*s",
				 (int)sizeof(fn->runs) - 20, fb.why);
	}
}

/*
 * A 32-bit ABI's time32 entries carry a 32-bit tv_sec, which overflows on
 * 2038-01-19 (timens shows what each does past it); the time64 entries,
 * every 64-bit ABI's and x32's (ELF32 with a 64-bit time_t) are safe.
 */
static const char *y2038(const struct vk_image *im, enum vk_func f)
{
	if (!vk_func_has_time(f))
		return NULL;
	if (im->elf.is64 || (im->arch && im->arch->time64) || vk_funcs[f].time64)
		return "y2038-safe";
	return "32-bit time: overflows in 2038";
}

void vk_info_read(struct vk_info *in, const struct vk_image *im)
{
	int absent = 0, time32_off;

	in->build_abi = vk_build_abi();
	vk_sysinfo_read(&in->sys);
	vk_sysinfo_try_timens(&in->sys);
	measure_clocksource(in);
	vk_vsyscall_read(&in->vsyscall);
	in->im = im;
	if (!im)
		return;
	in->size = im->elf.size;
	read_notes(in, &im->elf);
	vk_elf_check_hashes(&im->elf, in->hash_problem, sizeof(in->hash_problem));
	in->nulled = vk_elf_nulled(&im->elf);
	time32_off = vk_image_time32_off(im);
	for (int i = 0; i < VK_NALLFUNCS; i++) {
		struct vk_info_func *fn = &in->funcs[i];

		fn->id = i;
		fn->applies = im->arch && (im->arch->funcs & VK_FN_BIT(i));
		vk_image_func(im, i, &fn->f);
		in->napply += fn->applies;
		absent += fn->applies && !fn->f.found;
	}
	for (int i = 0; i < VK_NALLFUNCS; i++) {
		struct vk_info_func *fn = &in->funcs[i];

		fn->y2038 = y2038(im, i);
		if (fn->applies && !fn->f.found && time32_off && vk_func_time32(im->arch, i)) {
			/* Not a loss: the kernel was built so, and says so. */
			fn->absent = VK_WHY_VDSO_NO_TIME32;
			fn->time32_off = 1;
		} else if (fn->applies && !fn->f.found) {
			/* Which entry a nameless symbol was, its name no longer says. */
			fn->absent = !in->nulled ? "not exported" :
				     in->nulled >= absent ? "nulled out in place" :
							    "not exported, or nulled out in place";
			fn->follows = vk_funcs[i].absent;
		}
	}
	probe_fallbacks(in, im);
}
