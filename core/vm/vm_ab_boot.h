/* SPDX-License-Identifier: MIT */
/*
 * vm --kernel A --kernel B's boots (core/vm/vm_ab_boot.c): each kernel in
 * turn (A B A B ...), its first boot running info, fallback, verify and
 * bench, the later ones bench alone; their reports parsed, every boot's
 * bench report read as compare reads a file, and a side's merged.
 */
#ifndef VK_VM_AB_BOOT_H
#define VK_VM_AB_BOOT_H

#include <limits.h>

#include "core/benchfile/benchfile.h"
#include "core/vm/vm_ab.h"
#include "core/vm/vm_run.h"

enum { VK_AB_INFO, VK_AB_FALLBACK, VK_AB_VERIFY, VK_AB_BENCH, VK_AB_NDOCS };

struct vk_ab_side {
	const char *kernel;
	struct vk_vm first, later;	/* the first boot's commands; bench alone */
	char qemu[PATH_MAX], initrd[2][PATH_MAX];
	struct vk_jval *doc[VK_AB_NDOCS];	/* the first boot's reports */
	struct vk_compare_runs runs;	/* every boot's bench report, read as compare reads */
	const struct vk_jval **bench;	/* each one's document, in runs */
	unsigned long nbench;
	struct vk_timer timer;		/* the merged report's */
};

/* Why the boots stopped short. */
enum vk_ab_stop {
	VK_AB_DONE,
	VK_AB_NO_BOOT,		/* a boot gave no result: its run's end says why */
	VK_AB_COMMAND,		/* a command exited with status, not a finding's */
	VK_AB_NO_REPORT,	/* a command gave no report that reads */
};

struct vk_ab_boots {
	struct vk_ab_side s[2];
	unsigned long rounds;
	struct vk_vm_run run;	/* each boot's: its limit, fallback and note hook */
	int status;		/* VK_AB_COMMAND's */
};

/*
 * Side k of ab for kernel (rounds boots of it), its guests booting under
 * setup and running bench on the APIs words: 0, or -1 with why in err.
 * vk_ab_close() frees the sides opened, or not.
 */
int vk_ab_open(struct vk_ab_boots *ab, int k, const char *kernel, const struct vk_vm_setup *setup,
	       char *const *apis, int napis, char *err, size_t len);
void vk_ab_close(struct vk_ab_boots *ab);
/* Every boot under KVM (kvm set) or TCG. */
void vk_ab_kvm(struct vk_ab_boots *ab, int kvm);
/* Boot the sides in turn, ab->rounds times; why they stopped short in err. */
enum vk_ab_stop vk_ab_boot(struct vk_ab_boots *ab, char *err, size_t len);
/* What differs in kind into ds, and the model of what was found into m,
 * but its bench files. */
void vk_ab_found(const struct vk_ab_boots *ab, struct vk_ab_diffs *ds, struct vk_ab *m);
/* Side k's boots' bench reports merged as compare merges a side's runs:
 * 0, or -1 with why in err; free rep with vk_compare_runs_report_free(). */
int vk_ab_bench(struct vk_ab_boots *ab, int k, struct vk_bench_report *rep, char *err,
		size_t len);
/* Two kernels of one arch, as their headers say: 0, or -1 with why in err. */
int vk_ab_same_arch(const char *const kernel[2], char *err, size_t len);
/* The directory for the bench files: output, or a new one under $TMPDIR:
 * 0, or -1 with why in err. */
int vk_ab_dir(const char *output, char *dir, size_t len, char *err, size_t errlen);

#endif /* VK_VM_AB_BOOT_H */
