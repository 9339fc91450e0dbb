// SPDX-License-Identifier: MIT
/*
 * A finding's reproducer and its report. The C file is the parts below
 * with the finding's call between them: the names its entry has on the
 * arches, and the clock ids or getrandom's flags.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/call/targets.h"
#include "report/repro.h"
#include "report/safe.h"

/* The reproducer's parts, as it prints them. */
static const char includes[] =
	"#define _GNU_SOURCE\n"
	"#include <elf.h>\n"
	"#include <errno.h>\n"
	"#include <link.h>\n"
	"#include <stdint.h>\n"
	"#include <stdio.h>\n"
	"#include <string.h>\n"
	"#include <sys/auxv.h>\n"
	"#include <sys/mman.h>\n"
	"#include <sys/syscall.h>\n"
	"#include <unistd.h>\n";

static const char helpers[] =
	"\n"
	"/* DT_HASH's entries are 8 bytes on s390x and alpha, 4 elsewhere. */\n"
	"#if defined(__s390x__) || defined(__alpha__)\n"
	"typedef uint64_t hash_word;\n"
	"#else\n"
	"typedef uint32_t hash_word;\n"
	"#endif\n"
	"\n"
	"/* How many symbols the vDSO has: DT_HASH's nchain, else one past the\n"
	" * end of DT_GNU_HASH's last chain. */\n"
	"static size_t count_syms(const hash_word *hash, const uint32_t *gnu)\n"
	"{\n"
	"	const uint32_t *bucket, *chain;\n"
	"	uint32_t last = 0;\n"
	"\n"
	"	if (hash)\n"
	"		return hash[1];\n"
	"	if (!gnu)\n"
	"		return 0;\n"
	"	bucket = gnu + 4 + gnu[2] * (sizeof(ElfW(Addr)) / 4);\n"
	"	chain = bucket + gnu[0];\n"
	"	for (uint32_t i = 0; i < gnu[0]; i++)\n"
	"		last = bucket[i] > last ? bucket[i] : last;\n"
	"	if (last < gnu[1])\n"
	"		return gnu[1];\n"
	"	while (!(chain[last - gnu[1]] & 1))\n"
	"		last++;\n"
	"	return last + 1;\n"
	"}\n"
	"\n"
	"/* The vDSO's entry under one of names, or NULL: its ELF header is at\n"
	" * AT_SYSINFO_EHDR, its dynamic symbols are found from PT_DYNAMIC, and\n"
	" * its addresses are moved by where its first PT_LOAD was put. */\n"
	"static void *vdso_sym(void)\n"
	"{\n"
	"	uintptr_t base = getauxval(AT_SYSINFO_EHDR), bias = 0;\n"
	"	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)base;\n"
	"	const ElfW(Phdr) *ph;\n"
	"	const ElfW(Dyn) *dyn = NULL;\n"
	"	const ElfW(Sym) *sym = NULL;\n"
	"	const hash_word *hash = NULL;\n"
	"	const uint32_t *gnu = NULL;\n"
	"	const char *str = NULL;\n"
	"	int loaded = 0;\n"
	"	size_t n;\n"
	"\n"
	"	if (!base)\n"
	"		return NULL;\n"
	"	ph = (const ElfW(Phdr) *)(base + eh->e_phoff);\n"
	"	for (int i = 0; i < eh->e_phnum; i++) {\n"
	"		if (ph[i].p_type == PT_LOAD && !loaded) {\n"
	"			bias = base + ph[i].p_offset - ph[i].p_vaddr;\n"
	"			loaded = 1;\n"
	"		} else if (ph[i].p_type == PT_DYNAMIC) {\n"
	"			dyn = (const ElfW(Dyn) *)(base + ph[i].p_offset);\n"
	"		}\n"
	"	}\n"
	"	for (; loaded && dyn && dyn->d_tag != DT_NULL; dyn++) {\n"
	"		uintptr_t p = bias + dyn->d_un.d_ptr;\n"
	"\n"
	"		if (dyn->d_tag == DT_SYMTAB)\n"
	"			sym = (const ElfW(Sym) *)p;\n"
	"		else if (dyn->d_tag == DT_STRTAB)\n"
	"			str = (const char *)p;\n"
	"		else if (dyn->d_tag == DT_HASH)\n"
	"			hash = (const hash_word *)p;\n"
	"		else if (dyn->d_tag == DT_GNU_HASH)\n"
	"			gnu = (const uint32_t *)p;\n"
	"	}\n"
	"	if (!sym || !str)\n"
	"		return NULL;\n"
	"	n = count_syms(hash, gnu);\n"
	"	for (size_t i = 0; i < n; i++) {\n"
	"		int type = ELF64_ST_TYPE(sym[i].st_info);\n"
	"\n"
	"		if (sym[i].st_shndx == SHN_UNDEF || (type != STT_FUNC && type != STT_NOTYPE))\n"
	"			continue;\n"
	"		for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {\n"
	"			if (!strcmp(str + sym[i].st_name, names[k]))\n"
	"				return (void *)(bias + sym[i].st_value);\n"
	"		}\n"
	"	}\n"
	"	return NULL;\n"
	"}\n"
	"\n"
	"#ifdef __powerpc__\n"
	"/*\n"
	" * powerpc's vDSO fails as its syscalls do: a positive errno in r3 and\n"
	" * CR0's summary-overflow bit set. It is called from asm that makes a\n"
	" * frame first (the compiler may keep data below r1), sets r12 to the\n"
	" * entry (an ELFv2 global entry point computes its TOC from it), and\n"
	" * reads CR0 after: a failure becomes -errno, as elsewhere.\n"
	" */\n"
	"#ifdef __powerpc64__\n"
	"#define PPC_STLU \"stdu\"\n"
	"#else\n"
	"#define PPC_STLU \"stwu\"\n"
	"#endif\n"
	"\n"
	"static long call5(void *fn, long a, long b, long c, long d, long e)\n"
	"{\n"
	"	register long r3 __asm__(\"r3\") = a;\n"
	"	register long r4 __asm__(\"r4\") = b;\n"
	"	register long r5 __asm__(\"r5\") = c;\n"
	"	register long r6 __asm__(\"r6\") = d;\n"
	"	register long r7 __asm__(\"r7\") = e;\n"
	"	register void *r12 __asm__(\"r12\") = fn;\n"
	"	unsigned long cr;\n"
	"\n"
	"	__asm__ volatile(PPC_STLU \" 1,-320(1)\\n\\tmtctr %[fn]\\n\\tbctrl\\n\\t\"\n"
	"			 \"addi 1,1,320\\n\\tmfcr %[cr]\"\n"
	"			 : \"+r\"(r3), \"+r\"(r4), \"+r\"(r5), \"+r\"(r6), \"+r\"(r7), [fn] \"+r\"(r12),\n"
	"			   [cr] \"=r\"(cr)\n"
	"			 :\n"
	"			 : \"r0\", \"r8\", \"r9\", \"r10\", \"r11\", \"ctr\", \"lr\", \"xer\", \"cr0\", \"cr1\",\n"
	"			   \"cr5\", \"cr6\", \"cr7\", \"memory\");\n"
	"	return cr & 0x10000000 ? -r3 : r3;\n"
	"}\n"
	"#endif\n"
	"\n"
	"/* The syscall's result as the vDSO gives it: -errno on failure. */\n"
	"static long sys_result(long r)\n"
	"{\n"
	"	return r == -1 ? -errno : r;\n"
	"}\n"
	"\n"
	"static void show_error(long r)\n"
	"{\n"
	"	printf(\"-%ld (%s)\", -r, strerror((int)-r));\n"
	"}\n";

static const char clock_main[] =
	"\n"
	"/* The kernel's timespec: 64-bit for the time64 entries and x32. */\n"
	"#if TIME64 || (defined(__x86_64__) && defined(__ILP32__))\n"
	"typedef long long kword;\n"
	"#else\n"
	"typedef long kword;\n"
	"#endif\n"
	"\n"
	"struct kts {\n"
	"	kword sec, nsec;\n"
	"};\n"
	"\n"
	"static long vdso_call(void *fn, int id, struct kts *ts)\n"
	"{\n"
	"#ifdef __powerpc__\n"
	"	return call5(fn, id, (long)ts, 0, 0, 0);\n"
	"#else\n"
	"	return ((int (*)(int, struct kts *))fn)(id, ts);\n"
	"#endif\n"
	"}\n"
	"\n"
	"static void show(long r, const struct kts *ts)\n"
	"{\n"
	"	if (r)\n"
	"		show_error(r);\n"
	"	else\n"
	"		printf(\"0 {%lld s, %lld ns}\", (long long)ts->sec, (long long)ts->nsec);\n"
	"}\n"
	"\n"
	"int main(void)\n"
	"{\n"
	"	void *fn = vdso_sym();\n"
	"	int differ = 0;\n"
	"\n"
	"	if (!fn) {\n"
	"		printf(\"this process's vDSO has no %s: nothing to compare\\n\", names[0]);\n"
	"		return 4;\n"
	"	}\n"
	"	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {\n"
	"		struct kts v = { -1, -1 }, s = { -1, -1 };\n"
	"		long rv = vdso_call(fn, ids[i], &v);\n"
	"		long rs = sys_result(syscall(SYSNO, ids[i], &s));\n"
	"		/* A resolution is the same each time; a time is not. */\n"
	"		int same = rv == rs && (rv || !GETRES || (v.sec == s.sec && v.nsec == s.nsec));\n"
	"\n"
	"		printf(\"%s(%d): vDSO \", FUNC, ids[i]);\n"
	"		show(rv, &v);\n"
	"		printf(\", syscall \");\n"
	"		show(rs, &s);\n"
	"		printf(\": %s\\n\", same ? \"same\" : \"DIFFERENT\");\n"
	"		differ |= !same;\n"
	"	}\n"
	"	return differ;\n"
	"}\n";

static const char random_main[] =
	"\n"
	"/* What the vDSO's getrandom() says, asked how to allocate its state. */\n"
	"struct vgetrandom_opaque_params {\n"
	"	uint32_t size_of_opaque_state, mmap_prot, mmap_flags, reserved[13];\n"
	"};\n"
	"\n"
	"static long vdso_call(void *fn, void *buf, size_t len, unsigned flags, void *state,\n"
	"		      size_t state_len)\n"
	"{\n"
	"#ifdef __powerpc__\n"
	"	return call5(fn, (long)buf, (long)len, flags, (long)state, (long)state_len);\n"
	"#else\n"
	"	return ((long (*)(void *, size_t, unsigned, void *, size_t))fn)(buf, len, flags, state,\n"
	"									 state_len);\n"
	"#endif\n"
	"}\n"
	"\n"
	"static void show(long r)\n"
	"{\n"
	"	if (r < 0)\n"
	"		show_error(r);\n"
	"	else\n"
	"		printf(\"%ld\", r);\n"
	"}\n"
	"\n"
	"int main(void)\n"
	"{\n"
	"	struct vgetrandom_opaque_params params;\n"
	"	unsigned char a[16], b[16];\n"
	"	void *fn = vdso_sym(), *state;\n"
	"	int differ = 0;\n"
	"\n"
	"	if (!fn) {\n"
	"		printf(\"this process's vDSO has no getrandom: nothing to compare\\n\");\n"
	"		return 4;\n"
	"	}\n"
	"	/* The documented way to a state: ask with state_len ~0, map one as told. */\n"
	"	memset(&params, 0, sizeof(params));\n"
	"	if (vdso_call(fn, NULL, 0, 0, &params, ~0UL) != 0 || !params.size_of_opaque_state) {\n"
	"		printf(\"the vDSO's getrandom did not say how to make its state\\n\");\n"
	"		return 4;\n"
	"	}\n"
	"	state = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), params.mmap_prot, params.mmap_flags,\n"
	"		     -1, 0);\n"
	"	if (state == MAP_FAILED) {\n"
	"		perror(\"mmap of the vDSO getrandom's state\");\n"
	"		return 4;\n"
	"	}\n"
	"	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {\n"
	"		long rv = vdso_call(fn, a, sizeof(a), flags[i], state, params.size_of_opaque_state);\n"
	"		long rs = sys_result(syscall(SYS_getrandom, b, sizeof(b), flags[i]));\n"
	"\n"
	"		printf(\"getrandom(buf, 16, %#x): vDSO \", flags[i]);\n"
	"		show(rv);\n"
	"		printf(\", syscall \");\n"
	"		show(rs);\n"
	"		printf(\": %s\\n\", rv == rs ? \"same\" : \"DIFFERENT\");\n"
	"		differ |= rv != rs;\n"
	"	}\n"
	"	return differ;\n"
	"}\n";

/* The function the finding is of, or -1: its example's. */
static int func_of(const struct vk_finding *f)
{
	struct vk_clock c;
	int has_id;

	return vk_api_func(f->example->api, &c, &has_id);
}

static const char *func_name(const struct vk_finding *f)
{
	int fn = func_of(f);

	return fn >= 0 ? vk_funcs[fn].name : f->example->api;
}

static int is_clock(int fn)
{
	return fn >= 0 && vk_funcs[fn].shape == VK_SHAPE_CLOCK_TS;
}

static int is_random(int fn)
{
	return fn >= 0 && vk_funcs[fn].kind == VK_KIND_GETRANDOM;
}

/* "ok", "EINVAL", or "E<n>" for an errno the table has no name for. */
static const char *word(char *buf, size_t len, long ret)
{
	const char *name = vk_errno_name(-ret);

	if (!vk_is_err(ret))
		return "ok";
	if (strcmp(name, "errno"))
		return name;
	snprintf(buf, len, "E%ld", -ret);
	return buf;
}

void vk_repro_name(char *buf, size_t len, const struct vk_finding *f)
{
	const struct vk_result *r = f->example;
	char a[16], b[16];
	size_t n;

	if (r->returns && !vk_is_err(r->ret) && !vk_is_err(r->sys_ret))
		snprintf(buf, len, "%s-values", func_name(f));
	else if (r->returns)
		snprintf(buf, len, "%s-%s-%s", func_name(f), word(a, sizeof(a), r->ret),
			 word(b, sizeof(b), r->sys_ret));
	else
		snprintf(buf, len, "%s-%s-%s", func_name(f), f->example_cmd, r->check);
	/* A check's name may hold what no file name should: "tv:NULL,tz:valid". */
	for (n = 0; buf[n]; n++) {
		if (!isalnum((unsigned char)buf[n]) && !strchr("-_.", buf[n]))
			buf[n] = '_';
	}
}

int vk_repro_has_c(const struct vk_finding *f)
{
	int fn = func_of(f);

	if (!f->plain)
		return 0;
	return is_random(fn) || (is_clock(fn) && f->nids > 0);
}

/* "GRND_RANDOM|GRND_INSECURE", "0", or the bits it has no name for. */
static void flag_names(char *buf, size_t len, unsigned flags)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = { { 1, "GRND_NONBLOCK" }, { 2, "GRND_RANDOM" }, { 4, "GRND_INSECURE" } };
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (flags & names[i].bit)
			n += snprintf(buf + n, len - n, "%s%s", n ? "|" : "", names[i].name);
		flags &= ~names[i].bit;
	}
	if (flags || !n)
		snprintf(buf + n, len - n, "%s%#x", n ? "|" : "", flags);
}

static void repro_data(FILE *out, const struct vk_finding *f, int fn)
{
	const char *name = vk_funcs[fn].name;

	if (is_random(fn)) {
		fprintf(out, "static const unsigned flags[] = {");
		for (int i = 0; i < f->plain->nplain; i++)
			fprintf(out, "%s %#xu", i ? "," : "", f->plain->plain[i].flags);
		fprintf(out, " };\n");
	} else {
		fprintf(out, "#define FUNC \"%s\"\n#define SYSNO SYS_%s\n#define GETRES %d\n"
			"#define TIME64 %d\n", name, vk_funcs[fn].syscall,
			vk_funcs[fn].kind == VK_KIND_GETRES,
			vk_funcs[fn].time64);
		fprintf(out, "static const int ids[] = {");
		for (int i = 0; i < f->nids; i++)
			fprintf(out, "%s %d", i ? "," : "", f->ids[i]);
		fprintf(out, " };\n");
	}
	/* arm64, powerpc and s390 prefix __kernel_, the others __vdso_. */
	fprintf(out, "static const char *const names[] = { \"__vdso_%s\", \"__kernel_%s\" };\n",
		name, name);
}

void vk_repro_c(FILE *out, const struct vk_finding *f)
{
	int fn = func_of(f);
	char clocks[160];

	vk_finding_clocks(clocks, sizeof(clocks), f);
	fprintf(out, "/*\n * vdsokit's reproducer of: %s", f->what);
	if (is_clock(fn))
		fprintf(out, " (clock%s %s)", f->nids > 1 ? "s" : "", clocks);
	fprintf(out, ".\n * It calls this process's vDSO and the syscall alike and prints both.\n"
		" * Standalone, libc only: cc -o repro THIS.c && ./repro\n"
		" * Exit status: 0 they agree, 1 they differ, 4 this vDSO has no %s.\n */\n",
		vk_funcs[fn].name);
	fputs(includes, out);
	fputc('\n', out);
	repro_data(out, f, fn);
	fputs(helpers, out);
	fputs(is_random(fn) ? random_main : clock_main, out);
}

/* "fails with EINVAL", "returns 0 (success)", "returns 16 (bytes)". */
static const char *outcome(char *buf, size_t len, int fn, long ret)
{
	if (vk_is_err(ret))
		snprintf(buf, len, "fails with %s (%ld)", vk_errno_name(-ret), ret);
	else
		snprintf(buf, len, "returns %ld (%s)", ret, is_random(fn) ? "bytes" : "success");
	return buf;
}

/* A plain call of r's in C: "clock_getres(16, &ts)", "getrandom(buf, 16, GRND_RANDOM)". */
static void call_text(char *buf, size_t len, const struct vk_result *r, unsigned flags, int fn)
{
	char names[64];

	if (is_random(fn)) {
		flag_names(names, sizeof(names), flags);
		snprintf(buf, len, "getrandom(buf, 16, %s)", names);
	} else {
		struct vk_clock c;
		int has_id;

		/* cpu:self, id:INT_MAX and the like: by name, as no id is parsed. */
		if (vk_api_func(r->api, &c, &has_id) >= 0 && !has_id)
			snprintf(buf, len, "%s(%s, &ts)", vk_funcs[fn].name, c.name);
		else
			snprintf(buf, len, "%s(%d, &ts)", vk_funcs[fn].name, c.id);
	}
}

/* Why callers care, by how the two sides differ. */
static void why(FILE *out, const struct vk_finding *f, const char *fname)
{
	const struct vk_result *r = f->example;
	const char *e = vk_errno_name(-r->ret), *se = vk_errno_name(-r->sys_ret);

	fprintf(out, "Why it matters: libc calls the vDSO where it can, so one program on\n"
		"one kernel gets two answers: one through the vDSO, the other wherever\n"
		"the syscall is made instead (a seccomp or ptrace sandbox, valgrind, a\n"
		"libc that does not use the vDSO, a process started without one).\n");
	if (!r->returns)
		fprintf(out, "Here: %s.\n", f->what);
	else if (!vk_is_err(r->ret) && !vk_is_err(r->sys_ret))
		fprintf(out, "Here %s returns other values through the vDSO than\n"
			"through the syscall.\n", fname);
	else if (!vk_is_err(r->ret))
		fprintf(out, "A caller that asks %s whether the kernel takes these\n"
			"arguments is told yes through the vDSO and %s through the\n"
			"syscall, and goes on to use what the kernel refuses.\n", fname, se);
	else if (!vk_is_err(r->sys_ret))
		fprintf(out, "Through the vDSO, %s fails with %s where the kernel\n"
			"serves the call: callers give up or fall back for nothing.\n", fname, e);
	else
		fprintf(out, "Callers that act on errno take another branch through the\n"
			"vDSO (%s) than through the syscall (%s).\n", e, se);
}

static void paths(FILE *out, unsigned bits)
{
	for (int p = 0, n = 0; p < VK_NPATHS; p++) {
		if (bits & VK_PATH_BIT(p))
			fprintf(out, "%s%s", n++ ? ", " : "", vk_path_name(p));
	}
}

/* Who made the call: the kernel's vDSO, libc, the vsyscall page or the --impl library. */
static const char *side(enum vk_path p)
{
	if (p == VK_PATH_VSYSCALL)
		return "the vsyscall page";
	return p == VK_PATH_VDSO ? "the vDSO" : p == VK_PATH_LIBC ? "libc" : "the --impl library";
}

/* What each side does in one plain call of r's. */
static void side_call(FILE *out, const struct vk_result *r, const struct vk_plain *pc, int fn)
{
	char call[128], a[48], b[48];

	call_text(call, sizeof(call), r, pc->flags, fn);
	fprintf(out, "What %s does: %s %s\n", side(r->path), call,
		outcome(a, sizeof(a), fn, pc->ret));
	if (is_random(fn))
		fprintf(out, "  (with the opaque state it asks for, mapped as it says)\n");
	fprintf(out, "What the syscall does: %s %s\n", call,
		outcome(b, sizeof(b), fn, pc->sys_ret));
}

/* Each plain call that broke; what was seen where none was plain. */
static void sides(FILE *out, const struct vk_finding *f, int fn)
{
	const struct vk_result *r = f->plain;

	if (!r || fn < 0) {
		fprintf(out, "What vdsokit saw: %s\n", f->what);
		return;
	}
	for (int i = 0; i < r->nplain; i++)
		side_call(out, r, &r->plain[i], fn);
}

void vk_repro_txt(FILE *out, const struct vk_finding *f, const struct utsname *uts,
		  const char *version)
{
	const char *fname = func_name(f);
	int fn = func_of(f);
	char clocks[160], name[96], cmd[160];

	vk_finding_clocks(clocks, sizeof(clocks), f);
	vk_repro_name(name, sizeof(name), f);
	vk_finding_reproduce(cmd, sizeof(cmd), f);
	fprintf(out, "Subject: vDSO: %s", f->what);
	if (clocks[0])
		fprintf(out, " (clock%s %s)", f->nids + !!f->others[0] > 1 ? "s" : "", clocks);
	fprintf(out, "\n\n");
	fprintf(out, "Kernel: Linux %s %s (%s)\n\n", uts->release, uts->machine,
		uts->version);
	sides(out, f, fn);
	if (clocks[0])
		fprintf(out, "Clocks: %s\n", clocks);
	fprintf(out, "As vdsokit %s recorded it (%s, %s, %s): %s\n", version, f->example_cmd,
		vk_path_name(f->example->path), f->example->check, vk_safe(f->example->detail));
	fprintf(out, "Seen on the paths ");
	paths(out, f->paths);
	fprintf(out, ": %zu failed check%s (", f->checks, f->checks == 1 ? "" : "s");
	for (int k = 0; k < f->nby; k++)
		fprintf(out, "%s%s %zu", k ? ", " : "", f->by[k].command, f->by[k].checks);
	fprintf(out, ").\n");
	if (!(f->paths & VK_PATH_BIT(VK_PATH_VDSO)))
		fprintf(out, "Not seen on the kernel's vDSO itself: %s tells whether\n"
			"this kernel's vDSO does the same.\n",
			vk_repro_has_c(f) ? "the reproducer" : "vdsokit with --paths vdso");
	fprintf(out, "\n");
	why(out, f, fname);
	fprintf(out, "\nTo reproduce");
	if (vk_repro_has_c(f))
		fprintf(out, " with the attached %s.c\n(libc only; it exits 1 where "
			"the vDSO and the syscall differ, 0 where they agree):\n\n"
			"    cc -o %s %s.c && ./%s\n\nor", name, name, name, name);
	fprintf(out, " with vdsokit %s:\n\n    %s\n",
		version, cmd);
}
