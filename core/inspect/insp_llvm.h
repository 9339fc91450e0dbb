/* SPDX-License-Identifier: MIT */
/*
 * LLVM's disassembler, loaded with dlopen() when inspect first needs it,
 * not linked: the other commands start without LLVM's 50 MB and 0.17 s
 * (a bench worker, a probe, each exec()), and run where it is missing.
 */
#ifndef VK_INSP_LLVM_H
#define VK_INSP_LLVM_H

#include <stddef.h>
#include <llvm-c/Disassembler.h>

struct vk_llvm {
	__typeof__(LLVMCreateDisasm) *create;
	__typeof__(LLVMCreateDisasmCPUFeatures) *create_cpu;
	__typeof__(LLVMDisasmInstruction) *instruction;
	__typeof__(LLVMDisasmDispose) *dispose;
};

extern struct vk_llvm vk_llvm;

/* Load the library and target ("X86") once: 0, or -1 with err saying why. */
int vk_llvm_load(const char *target, char *err, size_t len);

#endif /* VK_INSP_LLVM_H */
