// SPDX-License-Identifier: MIT
/*
 * What a dynamic vdsokit needs in a guest to run --impl: the shared
 * objects the loader has open, once the libraries are loaded in a child.
 * Their paths are the ones the loader opened them by (the interpreter's
 * is the executable's PT_INTERP), not where symlinks lead, so the guest's
 * loader finds each where it looks, without ld.so.cache.
 */
#ifndef VK_STATIC
#include <dlfcn.h>
#include <link.h>
#endif
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/base/isolate.h"
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

struct pack {
	char *const *libs;
	int nlibs;
	struct vk_vm_files f;
};

/* In a child: load the libraries, then send the list of what is loaded,
 * or nothing where that is too long. */
static void list_objects(void *ctx, int fd)
{
	struct pack *pk = ctx;

	for (int n = 0; n < pk->nlibs; n++) {
		if (!dlopen(pk->libs[n], RTLD_NOW | RTLD_LOCAL))
			_exit(VK_IMPL_UNLOADED);
	}
	pk->f.n = 0;
	if (!dl_iterate_phdr(add_object, &pk->f))
		vk_write_all(fd, &pk->f, sizeof(pk->f));
}

int vk_vm_dynamic_files(char *const *libs, int nlibs, struct vk_vm_files *f, char *err,
			size_t len)
{
	struct pack pk = { .libs = libs, .nlibs = nlibs };
	struct vk_isolated out;
	char probe[256], why[64];
	unsigned funcs;
	int ok;

	f->n = 0;
	if (nlibs > VK_VM_MAX_FILES) {
		snprintf(err, len, "--impl: too many libraries");
		return -1;
	}
	/* Each is probed in a child of its own, so that what its constructor
	 * does is told with its name; then all load in one more, never here. */
	for (int n = 0; n < nlibs; n++) {
		if (vk_impl_probe(libs[n], &funcs, probe, sizeof(probe))) {
			snprintf(err, len, "--impl %s", probe);
			return -1;
		}
	}
	if (vk_isolate(list_objects, &pk, VK_IMPL_LOAD_TIMEOUT, &out)) {
		snprintf(err, len, "cannot fork to load --impl: %s", strerror(errno));
		return -1;
	}
	ok = out.len == sizeof(*f);
	if (ok)
		memcpy(f, out.data, sizeof(*f));
	else if (out.exited && !out.exit_status && !out.len)
		snprintf(err, len, "more than %d shared objects (or a path too long) to pack",
			 VK_VM_MAX_FILES);
	else {
		vk_isolated_describe(&out, VK_IMPL_LOAD_TIMEOUT, why, sizeof(why));
		snprintf(err, len, "--impl: loading the libraries together, the child %s%s",
			 out.signal ? "was " : "", why);
	}
	vk_isolated_free(&out);
	return ok ? 0 : -1;
}
#endif
