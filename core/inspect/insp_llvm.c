// SPDX-License-Identifier: MIT
/* LLVM's disassembler, found at run time: the library, its functions, a target. */
#include <dlfcn.h>
#include <stdio.h>

#include "core/inspect/insp_llvm.h"

#define SONAME "libLLVM.so.19.1"	/* Debian's libllvm19 */

struct vk_llvm vk_llvm;
static void *lib;

static void *must_find(const char *name, char *err, size_t len)
{
	void *f = dlsym(lib, name);

	if (!f)
		snprintf(err, len, "%s has no %s", SONAME, name);
	return f;
}

static int load_library(char *err, size_t len)
{
	if (lib)
		return 0;
	lib = dlopen(SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(err, len, "LLVM's disassembler could not be loaded (Debian: libllvm19): %s",
			 dlerror());
		return -1;
	}
	vk_llvm.create = must_find("LLVMCreateDisasm", err, len);
	vk_llvm.create_cpu = must_find("LLVMCreateDisasmCPUFeatures", err, len);
	vk_llvm.instruction = must_find("LLVMDisasmInstruction", err, len);
	vk_llvm.dispose = must_find("LLVMDisasmDispose", err, len);
	if (vk_llvm.create && vk_llvm.create_cpu && vk_llvm.instruction && vk_llvm.dispose)
		return 0;
	dlclose(lib);
	lib = NULL;
	return -1;
}

int vk_llvm_load(const char *target, char *err, size_t len)
{
	static const char *const parts[] = { "TargetInfo", "TargetMC", "Disassembler" };
	char name[64];

	if (load_library(err, len))
		return -1;
	/* Each target on its own: all of them take far longer. */
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		void (*init)(void);

		snprintf(name, sizeof(name), "LLVMInitialize%s%s", target, parts[i]);
		*(void **)&init = must_find(name, err, len);
		if (!init)
			return -1;
		init();
	}
	return 0;
}
