// SPDX-License-Identifier: MIT
/*
 * inspect's one table of per-arch knowledge: LLVM's triple, and the
 * mnemonics of syscalls, barriers and counter reads.
 */
#include <string.h>

#include "core/inspect/insp_arch.h"

/* A pattern: mnemonic, then what its operands have and have not, and what it is. */
#define P(...) P_(__VA_ARGS__, NULL, NULL, NULL, NULL)
#define P_(m, h, n, w, ...) { m, h, n, w }

/* x86's rows share all but the triple and the stack pointer. */
#define X86_ROW(name, trip, spreg, q, ...)                                                   \
	{ name, -1, trip, "X86", 1, spreg,                                             \
	  .syscall = { P("syscall"), P("sysenter"), P("int" q, "$128"), P("intl", "$128"),  \
		       P("int", "$128") },                                                  \
	  .barrier = { P("lfence"), P("mfence"), P("sfence") },                             \
	  .counter = { P("rdtsc"), P("rdtscp"), P("rdpid") },                               \
	  .indirect = { P("call" q, "*", NULL, "register"), P("jmp" q, "*", NULL, "register"), \
			P("call", "*", NULL, "register"), P("jmp", "*", NULL, "register") },    \
	  .call = { P("call" q), P("jmp" q), P("call"), P("jmp") },                         \
	  .frame = { P("sub" q, ", " spreg), P("add" q, ", " spreg, NULL, "-") },           \
	  .probe = { P("or" q, "$0, ", NULL), P("or", "$0, ") },                            \
	  .retpoline = { "pause", "lfence" },                                               \
	  .property = 0xc0000002,                                                           \
	  .feature = { { 1, "IBT", { P("endbr64"), P("endbr32") } }, { 2, "SHSTK", { { 0 } } } }, \
	  .prefix = { "notrack", "lock", "rep", "repne", "bnd", "ds" },                      \
	  .ret = { P("ret" q), P("ret") },                                                  \
	  .calls_back = { { "__vdso_sgx_enter_enclave",                                      \
			    "calls the caller's exit handler, as its ABI says "              \
			    "(Documentation/arch/x86/sgx.rst)" } },                         \
	  .unwind = __VA_ARGS__ }

#define MIPS_ROW(name, be, trip, addiu)                                                  \
	{ name, be, trip, "Mips", 4, "$sp",                                               \
	  .syscall = { P("syscall") },                                                       \
	  .barrier = { P("sync") },                                                          \
	  .counter = { P("rdhwr") },                                                         \
	  .indirect = { P("jr", NULL, "$ra", "register"), P("jalr", NULL, NULL, "register"),  \
			P("jr.hb", NULL, "$ra", "register"), P("jalr.hb", NULL, NULL, "register") }, \
	  .call = { P("bal"), P("jal"), P("j") },                                            \
	  .frame = { P(addiu, "$sp, $sp, -", NULL, "-") },                                   \
	  .probe = { { 0 } },                                                                \
	  .unwind = { 0, 0, "mips's vDSO is built with -fno-asynchronous-unwind-tables "      \
		      "(arch/mips/vdso/Makefile)", { NULL } } }

#define SPARC_ROW(name, trip)                                                             \
	{ name, 1, trip, "Sparc", 4, "%sp",                                               \
	  .syscall = { P("ta"), P("t") },                                                    \
	  .barrier = { P("membar") },                                                        \
	  .counter = { P("rd", "%tick"), P("rd", "%stick"), P("rd", "%asr24") },              \
	  .indirect = { P("jmp", NULL, "%i7+8", "register"), P("call", "%", NULL, "register") }, \
	  .call = { P("call") },                                                             \
	  .frame = { P("save", "%sp, -", NULL, "-") },                                       \
	  .probe = { { 0 } },                                                                \
	  .unwind = { 1, 1, NULL, { NULL } } }

static const struct vk_insp_arch rows[] = {
	X86_ROW("x86_64", "x86_64-linux-gnu", "%rsp", "q", { 1, 1, NULL, { NULL } }),
	X86_ROW("x32", "x86_64-linux-gnux32", "%rsp", "q", { 1, 1, NULL, { NULL } }),
	/* vdso32's assembly entries carry hand-written CFI; whether its C
	 * entries have FDEs has followed the kernel's build flags. */
	X86_ROW("i386", "i386-linux-gnu", "%esp", "l", { 0, 1,
		"i386's compat vDSO promises FDEs only for its hand-written entries "
		"(Debian 6.1's has them for __kernel_vsyscall and the sigreturns alone)",
		{ "__kernel_vsyscall", "__kernel_sigreturn", "__kernel_rt_sigreturn" } }),
	{ "aarch64", -1, "aarch64-linux-gnu", "AArch64", 4, "sp",
	  .syscall = { P("svc") },
	  .barrier = { P("isb"), P("dsb"), P("dmb") },
	  .counter = { P("mrs", "CNTVCT"), P("mrs", "CNTPCT") },
	  .indirect = { P("br", NULL, NULL, "register"), P("blr", NULL, NULL, "register"),
			P("braa", NULL, NULL, "register"), P("brab", NULL, NULL, "register"),
			P("blraa", NULL, NULL, "register"), P("blrab", NULL, NULL, "register") },
	  .call = { P("bl"), P("b") },
	  .frame = { P("sub", "sp, sp, #"), P("stp", "[sp, #-", NULL, "-"),
		     P("str", "[sp, #-", NULL, "-") },
	  /* gcc probes through x10 (aarch64_emit_probe_stack_range), clang at sp. */
	  .probe = { P("str", "xzr, [x10"), P("str", "xzr, [sp]") },
	  .property = 0xc0000000,
	  .feature = { { 1, "BTI", { P("bti", "c"), P("paciasp"), P("pacibsp") } },
		       { 2, "PAC", { { 0 } } } },
	  /* Unwinders use the frame record instead. */
	  .unwind = { 0, 0, "arm64's vDSO discards .eh_frame by design (kernel 87676cfca141)", { NULL } } },
	{ "arm", -1, "armv7-linux-gnueabihf", "ARM", 2, "sp",
	  .thumb = "thumbv7-linux-gnueabihf",
	  .syscall = { P("svc"), P("swi") },
	  .barrier = { P("isb"), P("dsb"), P("dmb") },
	  .counter = { P("mrrc", "c14") },
	  .indirect = { P("blx", "r", NULL, "register"), P("bx", NULL, "lr", "register"),
			/* ldr pc, [sp], #4 is a pop: a return. */
			P("ldr", "^pc,", "[sp]", "memory"), P("mov", "^pc,", "lr", "register") },
	  .call = { P("bl"), P("b") },
	  .frame = { P("sub", "sp, sp, #") },
	  .probe = { { 0 } },
	  .unwind = { 0, 0, "32-bit arm unwinds with .ARM.exidx, not .eh_frame", { NULL } } },
	{ "ppc64", 0, "powerpc64le-linux-gnu", "PowerPC", 4, "1",
	  .syscall = { P("sc") },
	  .barrier = { P("sync"), P("isync"), P("lwsync"), P("eieio") },
	  .counter = { P("mftb"), P("mfspr", "268"), P("mftbu") },
	  .indirect = { P("bctr", NULL, NULL, "register"), P("bctrl", NULL, NULL, "register") },
	  .call = { P("bl"), P("b") },
	  .frame = { P("stdu", "(1)", NULL, "-"), P("stwu", "(1)", NULL, "-") },
	  .probe = { { 0 } },
	  .unwind = { 1, 1, NULL, { NULL } } },
	{ "ppc64", 1, "powerpc64-linux-gnu", "PowerPC", 4, "1",
	  .syscall = { P("sc") },
	  .barrier = { P("sync"), P("isync"), P("lwsync"), P("eieio") },
	  .counter = { P("mftb"), P("mfspr", "268"), P("mftbu") },
	  .indirect = { P("bctr", NULL, NULL, "register"), P("bctrl", NULL, NULL, "register") },
	  .call = { P("bl"), P("b") },
	  .frame = { P("stdu", "(1)", NULL, "-"), P("stwu", "(1)", NULL, "-") },
	  .probe = { { 0 } },
	  .unwind = { 1, 1, NULL, { NULL } } },
	{ "ppc", 1, "powerpc-linux-gnu", "PowerPC", 4, "1",
	  .syscall = { P("sc") },
	  .barrier = { P("sync"), P("isync"), P("lwsync"), P("eieio") },
	  .counter = { P("mftb"), P("mfspr", "268"), P("mftbu") },
	  .indirect = { P("bctr", NULL, NULL, "register"), P("bctrl", NULL, NULL, "register") },
	  .call = { P("bl"), P("b") },
	  .frame = { P("stwu", "(1)", NULL, "-") },
	  .probe = { { 0 } },
	  .unwind = { 1, 1, NULL, { NULL } } },
	{ "s390x", 1, "s390x-linux-gnu", "SystemZ", 2, "%r15",
	  .syscall = { P("svc") },
	  .barrier = { P("bcr", "15, %r0"), P("bcr", "14, %r0") },
	  .counter = { P("stck"), P("stckf"), P("stcke") },
	  .indirect = { P("br", NULL, "%r14", "register"), P("basr", NULL, NULL, "register"),
			P("balr", NULL, NULL, "register") },
	  .call = { P("brasl"), P("jg") },
	  .frame = { P("aghi", "%r15, -", NULL, "-"), P("lay", "%r15, -", NULL, "-") },
	  .probe = { { 0 } },
	  .unwind = { 1, 1, NULL, { NULL } } },
	/* Linux's riscv64 is RV64GC: without "c", LLVM decodes no compressed
	 * instruction. */
	{ "riscv64", -1, "riscv64-linux-gnu", "RISCV", 2, "sp",
	  .cpu = "generic-rv64", .features = "+m,+a,+f,+d,+c,+zicsr,+zifencei",
	  .syscall = { P("ecall") },
	  .barrier = { P("fence"), P("fence.i"), P("fence.tso") },
	  .counter = { P("rdtime"), P("csrr", "time") },
	  .indirect = { P("jr", NULL, NULL, "register"), P("jalr", NULL, NULL, "register") },
	  .call = { P("jal"), P("j"), P("call"), P("tail") },
	  .frame = { P("addi", "sp, sp, -", NULL, "-") },
	  .probe = { { 0 } },
	  /* Its assembly entries carry CFI (getcpu.S, flush_icache.S,
	   * rt_sigreturn.S). */
	  .unwind = { 0, 1, "riscv64's vDSO C is built with -fno-asynchronous-unwind-tables "
			    "(arch/riscv/Makefile): FDEs are promised for its assembly entries only",
		      { "__vdso_rt_sigreturn", "__vdso_getcpu", "__vdso_flush_icache" } } },
	{ "loongarch64", -1, "loongarch64-linux-gnu", "LoongArch", 4, "$sp",
	  .syscall = { P("syscall") },
	  .barrier = { P("dbar"), P("ibar") },
	  .counter = { P("rdtime.d"), P("rdtimel.w"), P("rdtimeh.w") },
	  .indirect = { P("jr", NULL, NULL, "register"), P("jirl", NULL, NULL, "register") },
	  .call = { P("bl"), P("b") },
	  .frame = { P("addi.d", "$sp, $sp, -", NULL, "-") },
	  .probe = { { 0 } },
	  .unwind = { 1, 1, NULL, { NULL } } },
	MIPS_ROW("mips", 0, "mipsel-linux-gnu", "addiu"),
	MIPS_ROW("mips", 1, "mips-linux-gnu", "addiu"),
	MIPS_ROW("mipsn32", 0, "mips64el-linux-gnuabin32", "addiu"),
	MIPS_ROW("mipsn32", 1, "mips64-linux-gnuabin32", "addiu"),
	MIPS_ROW("mips64", 0, "mips64el-linux-gnuabi64", "daddiu"),
	MIPS_ROW("mips64", 1, "mips64-linux-gnuabi64", "daddiu"),
	SPARC_ROW("sparc64", "sparcv9-linux-gnu"),
	SPARC_ROW("sparc", "sparc-linux-gnu"),
};

const struct vk_insp_arch *vk_insp_arch_find(const char *arch, int big_endian)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (!strcmp(rows[i].arch, arch) &&
		    (rows[i].big_endian < 0 || rows[i].big_endian == big_endian))
			return &rows[i];
	}
	return NULL;
}

/* A "has" that begins with ^ is the operands' beginning. */
static int has(const char *ops, const char *want)
{
	if (want[0] == '^')
		return !strncmp(ops, want + 1, strlen(want + 1));
	return strstr(ops, want) != NULL;
}

static int matches(const struct vk_insp_pat *p, const char *mnem, const char *ops)
{
	return !strcmp(p->mnem, mnem) && (!p->has || has(ops, p->has)) &&
	       (!p->hasnt || !has(ops, p->hasnt));
}

const struct vk_insp_pat *vk_insp_match(const struct vk_insp_pat *list, const char *mnem,
					const char *ops)
{
	for (size_t i = 0; i < VK_INSP_PATS && list[i].mnem; i++) {
		if (matches(&list[i], mnem, ops))
			return &list[i];
	}
	return NULL;
}
