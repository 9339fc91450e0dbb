// SPDX-License-Identifier: MIT
/*
 * Makes every path callable alike (syscall, libc, vDSO, --impl), in the
 * vDSO's own prototype and convention, so that checks compare paths
 * without knowing which they hold (call.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>
#ifndef VK_STATIC
#include <dlfcn.h>
#endif

#include "core/call/call.h"
#include "core/call/vsyscall.h"
#include "core/image/elf.h"
#include "core/base/file.h"
#include "core/base/isolate.h"
#include "core/base/sysinfo.h"

/* The syscall path: the raw kernel entry, in the vDSO's convention. */
static long sys_ret(long r)
{
	return r == -1 ? -errno : r;
}

#define SYS_WRAPPERS(gettime, getres, ts)                                       \
	static int sys_##gettime(clockid_t c, void *t)                          \
	{                                                                       \
		return sys_ret(syscall(SYS_##gettime, c, (ts *)t));             \
	}                                                                       \
	static int sys_##getres(clockid_t c, void *t)                           \
	{                                                                       \
		return sys_ret(syscall(SYS_##getres, c, (ts *)t));              \
	}

SYS_WRAPPERS(clock_gettime, clock_getres, struct vk_kts)
#ifdef SYS_clock_gettime64
SYS_WRAPPERS(clock_gettime64, clock_getres_time64, struct vk_kts64)
#endif

static int sys_gettimeofday(void *tv, void *tz)
{
	return sys_ret(syscall(SYS_gettimeofday, tv, tz));
}

#ifdef SYS_time
static vk_klong sys_time(vk_klong *t)
{
	return sys_ret(syscall(SYS_time, t));
}
#endif

static int sys_getcpu(unsigned *cpu, unsigned *node, void *cache)
{
	return sys_ret(syscall(SYS_getcpu, cpu, node, cache));
}

static ssize_t sys_getrandom(void *buf, size_t len, unsigned flags, void *state,
			     size_t state_len)
{
	(void)state;
	(void)state_len;
	return sys_ret(syscall(SYS_getrandom, buf, len, flags));
}

/* The libc path: what a program calling libc gets. */
static int libc_clock_gettime(clockid_t c, void *t)
{
	return clock_gettime(c, t) ? -errno : 0;
}

static int libc_clock_getres(clockid_t c, void *t)
{
	return clock_getres(c, t) ? -errno : 0;
}

static int libc_gettimeofday(void *tv, void *tz)
{
	return gettimeofday(tv, tz) ? -errno : 0;
}

static vk_klong libc_time(vk_klong *t)
{
	time_t r = time((time_t *)t);

	return r == (time_t)-1 ? -errno : (vk_klong)r;
}

/* libc has no getcpu() everywhere; sched_getcpu() gives the cpu only. */
static int libc_getcpu(unsigned *cpu, unsigned *node, void *cache)
{
	int r = sched_getcpu();

	(void)node;
	(void)cache;
	if (r < 0)
		return -errno;
	if (cpu)
		*cpu = r;
	return 0;
}

static ssize_t libc_getrandom(void *buf, size_t len, unsigned flags, void *state,
			      size_t state_len)
{
	ssize_t r = getrandom(buf, len, flags);

	(void)state;
	(void)state_len;
	return r < 0 ? -errno : r;
}

static void set(struct vk_callset *cs, enum vk_path p, enum vk_func f, void *fn,
		const char *why)
{
	cs->fn[p][f].p = fn;
	cs->why[p][f] = fn ? NULL : why;
}

static void init_syscall(struct vk_callset *cs)
{
	static const char none[] = "no such syscall on this ABI";

	int time32 = !vk_time32_missing();

	for (int f = 0; f < VK_NALLFUNCS; f++)
		set(cs, VK_PATH_SYSCALL, f, NULL, none);
	set(cs, VK_PATH_SYSCALL, VK_FN_CLOCK_GETTIME, time32 ? sys_clock_gettime : NULL,
	    VK_WHY_NO_TIME32);
	set(cs, VK_PATH_SYSCALL, VK_FN_CLOCK_GETRES, time32 ? sys_clock_getres : NULL,
	    VK_WHY_NO_TIME32);
	set(cs, VK_PATH_SYSCALL, VK_FN_GETTIMEOFDAY, sys_gettimeofday, none);
#ifdef SYS_time
	set(cs, VK_PATH_SYSCALL, VK_FN_TIME, time32 ? sys_time : NULL, VK_WHY_NO_TIME32);
#endif
	set(cs, VK_PATH_SYSCALL, VK_FN_GETCPU, sys_getcpu, none);
	set(cs, VK_PATH_SYSCALL, VK_FN_GETRANDOM, sys_getrandom, none);
#ifdef SYS_clock_gettime64
	set(cs, VK_PATH_SYSCALL, VK_FN_CLOCK_GETTIME64, sys_clock_gettime64, none);
	set(cs, VK_PATH_SYSCALL, VK_FN_CLOCK_GETRES_TIME64, sys_clock_getres_time64, none);
#endif
}

/*
 * libc's clock calls take libc's timespec: the kernel's native one when
 * time_t is a long, the time64 one in a 32-bit build with 64-bit time_t.
 */
static void init_libc(struct vk_callset *cs)
{
	int native = sizeof(time_t) == sizeof(vk_klong);
	static const char other[] = "libc's time_t is not this entry's in this build";
	enum vk_func gettime = native ? VK_FN_CLOCK_GETTIME : VK_FN_CLOCK_GETTIME64;
	enum vk_func getres = native ? VK_FN_CLOCK_GETRES : VK_FN_CLOCK_GETRES_TIME64;

	for (int f = 0; f < VK_NALLFUNCS; f++)
		set(cs, VK_PATH_LIBC, f, NULL, vk_funcs[f].libc ? other : "libc has no such function");
	set(cs, VK_PATH_LIBC, gettime, libc_clock_gettime, other);
	set(cs, VK_PATH_LIBC, getres, libc_clock_getres, other);
	if (native) {
		set(cs, VK_PATH_LIBC, VK_FN_GETTIMEOFDAY, libc_gettimeofday, other);
		set(cs, VK_PATH_LIBC, VK_FN_TIME, libc_time, other);
	}
	set(cs, VK_PATH_LIBC, VK_FN_GETCPU, libc_getcpu, other);
	set(cs, VK_PATH_LIBC, VK_FN_GETRANDOM, libc_getrandom, other);
}

#ifdef __powerpc__
/*
 * powerpc's vDSO fails the way its syscalls do: a positive errno in r3
 * and the summary-overflow bit of CR0 set. Its entries are called through
 * shims that turn that into -errno. The asm allocates a frame first, as
 * the compiler may keep data below r1 (the ppc64 ABI's 288-byte protected
 * zone) in a function it takes for a leaf, and sets r12 to the entry, as
 * an ELFv2 global entry point computes its TOC from r12. The vDSO follows
 * the ABI, so the caller-saved registers are all it may change.
 */
#ifdef __powerpc64__
#define PPC_STLU "stdu"
#else
#define PPC_STLU "stwu"
#endif
#define PPC_FRAME "320"		/* the protected zone and a frame header */
/* The frame told to the unwind information too, where the compiler
 * writes it as .cfi directives: an unwinder that interrupts the vDSO
 * (verify's signal-unwind) must get past this frame to its caller. */
#ifdef __GCC_HAVE_DWARF2_CFI_ASM
#define PPC_CFI(x) ".cfi_adjust_cfa_offset " x "\n\t"
#else
#define PPC_CFI(x) ""
#endif
#define PPC_CR0_SO 0x10000000	/* CR0's SO bit in mfcr's word */

static void *ppc_entry[VK_NALLFUNCS];

static long ppc_call(void *fn, long a, long b, long c, long d, long e)
{
	register long r3 __asm__("r3") = a;
	register long r4 __asm__("r4") = b;
	register long r5 __asm__("r5") = c;
	register long r6 __asm__("r6") = d;
	register long r7 __asm__("r7") = e;
	register void *r12 __asm__("r12") = fn;
	unsigned long cr;

	__asm__ volatile(PPC_STLU " 1,-" PPC_FRAME "(1)\n\t"
			 PPC_CFI(PPC_FRAME)
			 "mtctr %[fn]\n\t"
			 "bctrl\n\t"
			 "addi 1,1," PPC_FRAME "\n\t"
			 PPC_CFI("-" PPC_FRAME)
			 "mfcr %[cr]"
			 : "+r"(r3), "+r"(r4), "+r"(r5), "+r"(r6), "+r"(r7), [fn] "+r"(r12),
			   [cr] "=r"(cr)
			 :
			 : "r0", "r8", "r9", "r10", "r11", "ctr", "lr", "xer", "cr0", "cr1",
			   "cr5", "cr6", "cr7", "memory");
	return cr & PPC_CR0_SO ? -r3 : r3;
}

#define PPC_CLOCK_SHIM(name, f)                                                 \
	static int name(clockid_t c, void *t)                                   \
	{                                                                       \
		return ppc_call(ppc_entry[f], c, (long)t, 0, 0, 0);             \
	}

PPC_CLOCK_SHIM(ppc_clock_gettime, VK_FN_CLOCK_GETTIME)
PPC_CLOCK_SHIM(ppc_clock_getres, VK_FN_CLOCK_GETRES)
PPC_CLOCK_SHIM(ppc_clock_gettime64, VK_FN_CLOCK_GETTIME64)
PPC_CLOCK_SHIM(ppc_clock_getres_time64, VK_FN_CLOCK_GETRES_TIME64)

static int ppc_gettimeofday(void *tv, void *tz)
{
	return ppc_call(ppc_entry[VK_FN_GETTIMEOFDAY], (long)tv, (long)tz, 0, 0, 0);
}

static vk_klong ppc_time(vk_klong *t)
{
	return ppc_call(ppc_entry[VK_FN_TIME], (long)t, 0, 0, 0, 0);
}

static int ppc_getcpu(unsigned *cpu, unsigned *node, void *cache)
{
	return ppc_call(ppc_entry[VK_FN_GETCPU], (long)cpu, (long)node, (long)cache, 0, 0);
}

static ssize_t ppc_getrandom(void *buf, size_t len, unsigned flags, void *state,
			     size_t state_len)
{
	return ppc_call(ppc_entry[VK_FN_GETRANDOM], (long)buf, len, flags, (long)state,
			state_len);
}

static void *const ppc_shim[VK_NALLFUNCS] = {
	[VK_FN_CLOCK_GETTIME] = ppc_clock_gettime,
	[VK_FN_CLOCK_GETRES] = ppc_clock_getres,
	[VK_FN_GETTIMEOFDAY] = ppc_gettimeofday,
	[VK_FN_TIME] = ppc_time,
	[VK_FN_GETCPU] = ppc_getcpu,
	[VK_FN_GETRANDOM] = ppc_getrandom,
	[VK_FN_CLOCK_GETTIME64] = ppc_clock_gettime64,
	[VK_FN_CLOCK_GETRES_TIME64] = ppc_clock_getres_time64,
};

/* The vDSO path's function for an entry: on powerpc, its shim. */
static void *vdso_fn(enum vk_func f, void *entry)
{
	ppc_entry[f] = entry;
	return entry ? ppc_shim[f] : NULL;
}
#else
static void *vdso_fn(enum vk_func f, void *entry)
{
	(void)f;
	return entry;
}
#endif

static void init_vdso(struct vk_callset *cs, const struct vk_image *im)
{
	struct vk_image_func f;
	int time32_off = im && vk_image_time32_off(im);

	cs->vdso_nulled = im ? vk_elf_nulled(&im->elf) : 0;
	for (int i = 0; i < VK_NALLFUNCS; i++) {
		if (!im) {
			set(cs, VK_PATH_VDSO, i, NULL, "this process has no vDSO");
			continue;
		}
		if (vk_image_func(im, i, &f)) {
			set(cs, VK_PATH_VDSO, i, NULL,
			    time32_off && vk_func_time32(im->arch, i) ? VK_WHY_VDSO_NO_TIME32 :
									VK_WHY_NOT_EXPORTED);
			continue;
		}
		set(cs, VK_PATH_VDSO, i, vdso_fn(i, vk_image_addr(im, &f.sym)),
		    "its address is not mapped");
	}
}

/* The page's three entries, where this process has the page. */
static void init_vsyscall(struct vk_callset *cs)
{
	enum vk_vsyscall_mode m;
	const char *why = vk_vsyscall_missing(&m);

	for (int i = 0; i < VK_NALLFUNCS; i++)
		set(cs, VK_PATH_VSYSCALL, i, why ? NULL : vk_vsyscall_entry(i),
		    why ? why : "the vsyscall page has only gettimeofday, time and getcpu");
}

#ifdef VK_STATIC
static int init_impl(struct vk_callset *cs, const char *impl, char *err, size_t len)
{
	for (int i = 0; i < VK_NALLFUNCS; i++)
		set(cs, VK_PATH_IMPL, i, NULL, "no --impl given");
	if (impl) {
		snprintf(err, len, "--impl is unavailable in a static build (no dlopen)");
		return -1;
	}
	return 0;
}

void vk_callset_load(struct vk_callset *cs)
{
	(void)cs;
}
#else
/* An implementation may use either naming: __vdso_* or __kernel_*. */
static void *impl_sym(void *h, const char *name)
{
	char buf[64];
	void *p;

	snprintf(buf, sizeof(buf), "__vdso_%s", name);
	p = dlsym(h, buf);
	if (!p) {
		snprintf(buf, sizeof(buf), "__kernel_%s", name);
		p = dlsym(h, buf);
	}
	return p;
}

/*
 * What the loader refuses with a misleading reason (an arm64 library on
 * x86_64 is "No such file or directory"): a file that is no ELF, or an
 * ELF for another machine, word size or byte order than this build's;
 * and what it would wait on forever, a FIFO or a device. A file that
 * cannot be read is left to the loader to name.
 */
static int impl_header(const char *impl, char *err, size_t len)
{
	const struct vk_arch *host = vk_arch_host();
	int big = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	unsigned char h[20];
	int fd = vk_open_regular(impl, err, len);
	ssize_t n;
	unsigned machine;

	if (fd < 0)
		return errno == EISDIR || errno == EINVAL ? -1 : 0;
	n = read(fd, h, sizeof(h));
	close(fd);
	if (n < 0)
		return 0;
	if (n < (ssize_t)sizeof(h) || memcmp(h, "\177ELF", 4)) {
		snprintf(err, len, "%s: not an ELF file", impl);
		return -1;
	}
	machine = h[5] == 2 ? h[18] << 8 | h[19] : h[19] << 8 | h[18];
	if (!host)
		return 0;
	if (machine != host->machine)
		snprintf(err, len, "%s: an ELF for %s, this vdsokit is %s", impl,
			 vk_elf_machine_name(machine), host->name);
	else if ((h[4] == 2) != host->is64)
		snprintf(err, len, "%s: a %d-bit ELF, this vdsokit is %d-bit", impl,
			 h[4] == 2 ? 64 : 32, host->is64 ? 64 : 32);
	else if ((h[5] == 2) != big)
		snprintf(err, len, "%s: a %s-endian ELF, this vdsokit is %s-endian", impl,
			 h[5] == 2 ? "big" : "little", big ? "big" : "little");
	else
		return 0;
	return -1;
}

/* The functions the library at h exports, a bit each. */
static unsigned impl_funcs(void *h)
{
	unsigned funcs = 0;

	for (int i = 0; i < VK_NALLFUNCS; i++)
		funcs |= impl_sym(h, vk_funcs[i].name) ? VK_FN_BIT(i) : 0;
	return funcs;
}

/* Whether every page of the live vDSO is still mapped. */
static int vdso_mapped(const struct vk_image *im)
{
	uintptr_t page = sysconf(_SC_PAGESIZE), start = (uintptr_t)im->elf.base & -page;

	return msync((void *)start, (uintptr_t)im->elf.base + im->elf.size - start, MS_ASYNC) == 0;
}

/*
 * In the child: load the library; "+" and the functions it exports, or
 * "-" and why not: the loader's reason, or the vDSO its constructor
 * unmapped, which every path but the syscall's may need.
 */
static void probe_load(void *ctx, int fd)
{
	struct vk_image im;
	int vdso = vk_image_open_live(&im) == 0;
	void *h = dlopen(ctx, RTLD_NOW | RTLD_LOCAL);
	const char *why = h ? NULL : dlerror();
	unsigned funcs;

	if (h && vdso && !vdso_mapped(&im))
		why = "its constructor unmapped the vDSO";
	if (why) {
		vk_write_all(fd, "-", 1);
		if (h)
			dprintf(fd, "%s: ", (char *)ctx);
		vk_write_all(fd, why, strlen(why));
		return;
	}
	funcs = impl_funcs(h);
	vk_write_all(fd, "+", 1);
	vk_write_all(fd, &funcs, sizeof(funcs));
}

double vk_impl_load_timeout(void)
{
	return vk_watchdog_hook("VDSOKIT_IMPL_LOAD_TIMEOUT", VK_IMPL_LOAD_TIMEOUT);
}

int vk_impl_probe(const char *impl, unsigned *funcs, char *err, size_t len)
{
	double timeout = vk_impl_load_timeout();
	struct vk_isolated out;
	char why[64];
	int ok;

	if (impl_header(impl, err, len))
		return -1;
	if (vk_isolate(probe_load, (void *)impl, timeout, &out)) {
		snprintf(err, len, "%s: cannot fork to load it: %s", impl, strerror(errno));
		return -1;
	}
	ok = out.len == 1 + sizeof(*funcs) && out.data[0] == '+' && out.exited &&
	     !out.exit_status;
	if (ok) {
		memcpy(funcs, out.data + 1, sizeof(*funcs));
	} else if (out.len && out.data[0] == '-') {
		snprintf(err, len, "%.*s", (int)out.len - 1, out.data + 1);
	} else {
		vk_isolated_describe(&out, timeout, why, sizeof(why));
		snprintf(err, len, "%s: its constructor %s%s", impl, out.signal ? "was " : "",
			 why);
	}
	vk_isolated_free(&out);
	return ok ? 0 : -1;
}

static int init_impl(struct vk_callset *cs, const char *impl, char *err, size_t len)
{
	unsigned funcs;
	int n;

	for (int i = 0; i < VK_NALLFUNCS; i++)
		set(cs, VK_PATH_IMPL, i, NULL, "no --impl given");
	if (!impl)
		return 0;
	/* A bare name would be searched for in the library path. */
	if (!strchr(impl, '/')) {
		snprintf(err, len, "--impl %s: give a path, e.g. ./%s", impl, impl);
		return -1;
	}
	n = snprintf(err, len, "--impl ");
	if (vk_impl_probe(impl, &funcs, err + n, len - n))
		return -1;
	cs->impl_path = impl;
	cs->impl_funcs = funcs;
	for (int i = 0; i < VK_NALLFUNCS; i++)
		cs->why[VK_PATH_IMPL][i] = funcs & VK_FN_BIT(i) ? NULL :
					   "the --impl library does not export it";
	return 0;
}

/*
 * What a constructor may change in the process that loads it and that
 * can be put back: the signal mask and dispositions, the resource limits.
 */
struct process_state {
	sigset_t mask;
	struct sigaction act[NSIG];
	struct rlimit lim[RLIM_NLIMITS];
};

static void save_state(struct process_state *s)
{
	memset(s, 0, sizeof(*s));
	sigprocmask(SIG_SETMASK, NULL, &s->mask);
	for (int sig = 1; sig < NSIG; sig++)
		sigaction(sig, NULL, &s->act[sig]);
	for (int r = 0; r < RLIM_NLIMITS; r++)
		getrlimit(r, &s->lim[r]);
}

/* What the process allows may not all come back (a hard limit lowered). */
static void restore_state(const struct process_state *s)
{
	for (int sig = 1; sig < NSIG; sig++)
		sigaction(sig, &s->act[sig], NULL);
	for (int r = 0; r < RLIM_NLIMITS; r++)
		setrlimit(r, &s->lim[r]);
	sigprocmask(SIG_SETMASK, &s->mask, NULL);
}

void vk_callset_load(struct vk_callset *cs)
{
	struct process_state saved;
	void *h;

	if (!cs->impl_path)
		return;
	save_state(&saved);
	h = dlopen(cs->impl_path, RTLD_NOW | RTLD_LOCAL);
	restore_state(&saved);
	if (!h || impl_funcs(h) != cs->impl_funcs)
		_exit(VK_IMPL_UNLOADED);
	for (int i = 0; i < VK_NALLFUNCS; i++)
		set(cs, VK_PATH_IMPL, i, impl_sym(h, vk_funcs[i].name),
		    "the --impl library does not export it");
}
#endif

int vk_impl_copy(const char *path, char *name, size_t len)
{
	char buf[65536];
	char err[8];
	int in = vk_open_regular(path, err, sizeof(err));
	int out = memfd_create("vdsokit-impl", MFD_CLOEXEC);
	ssize_t got = in < 0 || out < 0 ? -1 : 1;

	while (got > 0) {
		got = read(in, buf, sizeof(buf));
		if (got > 0 && write(out, buf, got) != got)
			got = -1;
	}
	if (in >= 0)
		close(in);
	if (got < 0 && out >= 0) {
		close(out);
		out = -1;
	}
	if (out >= 0)
		snprintf(name, len, "/proc/self/fd/%d", out);
	return out;
}

int vk_callset_init(struct vk_callset *cs, const struct vk_image *im, const char *impl,
		    char *err, size_t len)
{
	memset(cs, 0, sizeof(*cs));
	init_syscall(cs);
	init_libc(cs);
	init_vdso(cs, im);
	init_vsyscall(cs);
	return init_impl(cs, impl, err, len);
}

const struct vk_callset *vk_callset_child(const struct vk_callset *cs, unsigned paths,
					  struct vk_callset *mine)
{
	if (!(paths & VK_PATH_BIT(VK_PATH_IMPL)) || !cs->impl_path)
		return cs;
	*mine = *cs;
	vk_callset_load(mine);
	return mine;
}

const char *vk_path_name(enum vk_path p)
{
	static const char *const names[VK_NPATHS] = {
		[VK_PATH_VDSO] = "vdso",
		[VK_PATH_LIBC] = "libc",
		[VK_PATH_IMPL] = "impl",
		[VK_PATH_VSYSCALL] = "vsyscall",
		[VK_PATH_SYSCALL] = "syscall",
	};

	return (unsigned)p < VK_NPATHS ? names[p] : "?";
}

int vk_paths_parse(const char *list, unsigned *mask)
{
	char buf[128], *tok, *save;

	if (strlen(list) >= sizeof(buf))
		return -1;
	strcpy(buf, list);
	*mask = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int p;

		for (p = 0; p < VK_NPATHS && strcmp(tok, vk_path_name(p)); p++)
			;
		if (p == VK_NPATHS)
			return -1;
		*mask |= VK_PATH_BIT(p);
	}
	return *mask ? 0 : -1;
}

int vk_getrandom_state(vk_getrandom_fn fn, void **state, size_t *len)
{
	struct {
		uint32_t size, prot, flags, reserved[13];
	} params = { 0 };
	long page = sysconf(_SC_PAGESIZE);
	void *s;

	if (fn(NULL, 0, 0, &params, ~0UL) || !params.size || params.size > (unsigned long)page)
		return -1;
	s = mmap(NULL, page, params.prot, params.flags, -1, 0);
	if (s == MAP_FAILED)
		return -1;
	*state = s;
	*len = params.size;
	return 0;
}

long vk_call_plain(union vk_fn fn, enum vk_func f, int clock, unsigned flags, void *state,
		   size_t state_len)
{
	struct vk_kts64 ts;	/* room for either width */
	struct vk_ktv tv;
	int tz[2];
	unsigned cpu, node;
	vk_klong t;
	unsigned char buf[16];

	switch (vk_funcs[f].shape) {
	case VK_SHAPE_CLOCK_TS:
		return fn.clock(clock, &ts);
	case VK_SHAPE_TV_TZ:
		return fn.tod(&tv, tz);
	case VK_SHAPE_TIME:
		return fn.time(&t);
	case VK_SHAPE_GETCPU:
		return fn.getcpu(&cpu, &node, NULL);
	case VK_SHAPE_GETRANDOM:
		return fn.getrandom(buf, sizeof(buf), flags, state, state_len);
	default:
		return -1;
	}
}
