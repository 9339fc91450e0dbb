// SPDX-License-Identifier: MIT
/*
 * What a dynamic vdsokit needs in a guest to run --impl: the shared
 * objects the loader has open, once the libraries are loaded here too.
 * Their paths are the ones the loader opened them by (the interpreter's
 * is the executable's PT_INTERP), not where symlinks lead, so the guest's
 * loader finds each where it looks, without ld.so.cache.
 */
#ifndef VK_STATIC
#include <dlfcn.h>
#include <link.h>
#endif
#include <stdio.h>
#include <string.h>

#include "core/call/call.h"
#include "core/vm/vm.h"

#ifdef VK_STATIC
int vk_vm_dynamic_files(char *const *libs, int nlibs, struct vk_vm_files *f, char *err,
			size_t len)
{
	(void)libs;
	(void)nlibs;
	f->n = 0;
	snprintf(err, len, "--impl in the guest needs a dynamic vdsokit (this one is static)");
	return -1;
}
#else
static int add_object(struct dl_phdr_info *info, size_t size, void *data)
{
	struct vk_vm_files *f = data;
	const char *name = info->dlpi_name;

	(void)size;
	/* The executable has no name here and the vDSO is no file. */
	if (!name || name[0] != '/')
		return 0;
	for (int i = 0; i < f->n; i++) {
		if (!strcmp(f->path[i], name))
			return 0;
	}
	if (f->n == VK_VM_MAX_FILES || strlen(name) >= sizeof(f->path[0]))
		return 1;
	snprintf(f->path[f->n++], sizeof(f->path[0]), "%s", name);
	return 0;
}

int vk_vm_dynamic_files(char *const *libs, int nlibs, struct vk_vm_files *f, char *err,
			size_t len)
{
	void *h[VK_VM_MAX_FILES];
	char probe[256];
	int n = 0, bad = 1;

	f->n = 0;
	for (; n < nlibs && n < VK_VM_MAX_FILES; n++) {
		/* Its constructor runs here only once it has run safely in a child. */
		if (vk_impl_probe(libs[n], probe, sizeof(probe)))
			break;
		h[n] = dlopen(libs[n], RTLD_NOW | RTLD_LOCAL);
		if (!h[n]) {
			snprintf(probe, sizeof(probe), "%s", dlerror());
			break;
		}
	}
	if (n < nlibs)
		snprintf(err, len, "--impl %s", n < VK_VM_MAX_FILES ? probe : "too many libraries");
	else if (dl_iterate_phdr(add_object, f))
		snprintf(err, len, "more than %d shared objects (or a path too long) to pack",
			 VK_VM_MAX_FILES);
	else
		bad = 0;
	while (n--)
		dlclose(h[n]);
	return bad ? -1 : 0;
}
#endif
