// SPDX-License-Identifier: MIT
/*
 * vdsokit vm --kernel A --kernel B: the before and after of a patch,
 * booted by core/vm/vm_ab_boot.c. What differs in kind is said always;
 * the speed, under KVM only, by compare on the two kernels' bench files,
 * each side's boots merged into one.
 */
#include <stdio.h>

#include "core/vm/vm_ab_boot.h"
#include "report/format.h"
#include "report/vm.h"
#include "report/vm_ab.h"
#include "commands/commands.h"
#include "commands/compare_cmd.h"
#include "commands/vm_cmd.h"

/* Side k's bench file at path, through bench's writer; -1 said. */
static int write_bench(struct vk_ab_boots *ab, int k, const char *path, struct vk_files *files)
{
	struct vk_bench_report rep;
	char err[512];
	FILE *f = vk_files_open(files, path);
	int bad = !f || vk_ab_bench(ab, k, &rep, err, sizeof(err));

	if (f && bad)
		fprintf(stderr, "%s: %s: %s\n", vk_progname, path, err);
	if (!bad)
		vk_render(f, VK_FMT_JSON, &(const struct vk_doc){ .command = "bench",
				.kind = VK_DOC_BENCH, .bench = &rep });
	if (f)
		vk_compare_runs_report_free(&rep);
	return bad ? -1 : 0;
}

/* Both sides' bench files in dir, named in m; -1 said. */
static int write_files(const struct vk_vm_opts *o, struct vk_ab_boots *ab, struct vk_ab *m,
		       char file[2][PATH_MAX + 8])
{
	static struct vk_files files;
	char dir[PATH_MAX], err[PATH_MAX + 64];

	if (vk_ab_dir(o->output, dir, sizeof(dir), err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", vk_progname, err);
		return -1;
	}
	for (int k = 0; k < 2 && ab->s[0].nbench && ab->s[1].nbench; k++) {
		snprintf(file[k], PATH_MAX + 8, "%s/%s.json", dir, k ? "b" : "a");
		if (write_bench(ab, k, file[k], &files)) {
			vk_files_drop(&files);
			return -1;
		}
		m->bench[k] = file[k];
	}
	return vk_files_commit(&files) ? -1 : 0;
}

static int judge(const struct vk_vm_opts *o, struct vk_ab_boots *ab)
{
	const struct vk_compare_runs *const runs[2] = { &ab->s[0].runs, &ab->s[1].runs };
	static struct vk_ab_diffs ds;
	char file[2][PATH_MAX + 8];
	int status = VK_EXIT_OK;
	struct vk_ab m;

	vk_ab_found(ab, &ds, &m);
	if (write_files(o, ab, &m, file))
		return VK_EXIT_USAGE;
	vk_report_ab(stdout, &m);
	/* A run's row whose calls failed fails A/B, as compare fails it. */
	if (m.emulated && m.bench[0] && vk_report_ab_failed(stdout, runs))
		status = VK_EXIT_FAIL;
	if (!m.emulated && m.bench[0]) {
		char *const paths[2] = { file[0], file[1] };

		printf("\n");
		/* The table `vdsokit compare a.json b.json` prints of the files
		 * left, its messages named as compare's. */
		vk_progname = "vdsokit compare";
		status = vk_compare_files(paths, 1, 1);
		vk_progname = "vdsokit vm";
	}
	return m.worse && status == VK_EXIT_OK ? VK_EXIT_FAIL : status;
}

int vk_vm_ab(const struct vk_vm_opts *o)
{
	static struct vk_ab_boots ab;
	int status = VK_EXIT_USAGE;
	char err[PATH_MAX + 128];
	enum vk_ab_stop stop;

	if (o->dry_run)
		return vk_usage_error("--dry-run takes one --kernel");
	if (!o->setup.arch && vk_ab_same_arch(o->kernel, err, sizeof(err)))
		goto said;
	ab.rounds = o->rounds;
	for (int k = 0; k < 2; k++) {
		if (vk_ab_open(&ab, k, o->kernel[k], &o->setup, o->words, o->nwords, err,
			       sizeof(err)))
			goto said;
		vk_report_vm_smp(stderr, vk_progname, &ab.s[k].first, o->setup.smp);
	}
	vk_ab_kvm(&ab, vk_vm_use_kvm(o->accel, &ab.s[0].first, err, sizeof(err)));
	if (*err)
		fprintf(stderr, "%s: %s\n", vk_progname, err);
	vk_vm_run_opts(&ab.run, o, VK_VM_KEEP_STDOUT);
	stop = vk_ab_boot(&ab, err, sizeof(err));
	if (stop == VK_AB_DONE) {
		status = judge(o, &ab);
		goto out;
	}
	status = stop == VK_AB_NO_BOOT ? vk_vm_status(o, ab.run.end) :
		 stop == VK_AB_COMMAND ? ab.status : VK_VM_NO_RESULT;
said:
	fprintf(stderr, "%s: %s\n", vk_progname, err);
out:
	vk_ab_close(&ab);
	return status;
}
