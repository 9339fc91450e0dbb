// SPDX-License-Identifier: MIT
/*
 * Whether `vdsokit vm --accel auto` tries KVM. Where /dev/kvm exists but
 * KVM never reaches /init (a nested hypervisor that hangs), the probe
 * costs 30 s; its verdict is kept per machine boot (the kernel's boot id)
 * and qemu binary (path, size and time), so only the first run pays.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/vm/vm.h"

/* The verdicts' file: one line a qemu that failed, "KEY no-kvm". */
static void verdict_path(char *path, size_t len)
{
	const char *cache = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (cache && *cache)
		snprintf(path, len, "%s/vdsokit/kvm-verdicts", cache);
	else
		snprintf(path, len, "%s/.cache/vdsokit/kvm-verdicts", home && *home ? home : "/tmp");
}

/* This boot of the machine, this qemu and arch; -1 where unknown. */
static int verdict_key(const struct vk_vm_arch *a, const char *qemu, char *key, size_t len)
{
	char boot[64] = "";
	struct stat st;
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");
	int ok = f && fgets(boot, sizeof(boot), f);

	if (f)
		fclose(f);
	boot[strcspn(boot, "\n")] = '\0';
	if (!ok || !*boot || stat(qemu, &st))
		return -1;
	snprintf(key, len, "%s %s %s %lld %lld", boot, a->name, qemu, (long long)st.st_size,
		 (long long)st.st_mtime);
	return 0;
}

static int known_to_fail(const struct vk_vm_arch *a, const char *qemu, char *path, size_t len)
{
	char key[PATH_MAX + 160], line[PATH_MAX + 200];
	size_t n;
	FILE *f;
	int found = 0;

	verdict_path(path, len);
	if (verdict_key(a, qemu, key, sizeof(key)) || !(f = fopen(path, "re")))
		return 0;
	n = strlen(key);
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, key, n) && !strcmp(line + n, " no-kvm\n");
	fclose(f);
	return found;
}

int vk_vm_kvm_possible(const struct vk_vm_arch *a, const char *qemu, char *why, size_t len)
{
	const char *dev = getenv("VDSOKIT_KVM_DEVICE");
	char path[PATH_MAX];
	struct utsname u;

	*why = '\0';
	if (!a->host || uname(&u) || strcmp(u.machine, a->host) ||
	    access(dev && *dev ? dev : "/dev/kvm", R_OK | W_OK))
		return 0;
	if (!known_to_fail(a, qemu, path, sizeof(path)))
		return 1;
	snprintf(why, len, "KVM did not reach /init in an earlier run since this machine booted (%s)",
		 path);
	return 0;
}

void vk_vm_kvm_failed(const struct vk_vm_arch *a, const char *qemu)
{
	char key[PATH_MAX + 160], path[PATH_MAX];
	FILE *f;

	if (known_to_fail(a, qemu, path, sizeof(path)) || verdict_key(a, qemu, key, sizeof(key)))
		return;
	/* The directory is the initramfs cache's, made before any boot. */
	f = fopen(path, "ae");
	if (f) {
		fprintf(f, "%s no-kvm\n", key);
		fclose(f);
	}
}
