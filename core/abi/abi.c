// SPDX-License-Identifier: MIT
/*
 * abi's cases and their runner: the hostile arguments of each function,
 * each case's call in a watched child with canaries around its buffers,
 * and the comparison of that outcome with the syscall's (abi.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/abi/abi.h"
#include "core/base/isolate.h"
#include "core/base/sysinfo.h"
#include "core/call/targets.h"

#ifndef GRND_INSECURE
#define GRND_INSECURE 0x0004
#endif
#if defined(__SANITIZE_ADDRESS__)
#define VK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VK_ASAN 1
#endif
#endif
#define SLOT_OFF(i) (64 + (i) * 1024)	/* valid objects, in the canary page */
#define MAX_HANGS 3			/* per API and path, then the rest are skipped */

/*
 * Five pages, set up once and inherited by every child: a writable page
 * whose end an object can straddle into the hole after it, the hole, a
 * PROT_NONE page, a read-only page, and the canary page that holds the
 * valid objects.
 */
static struct {
	unsigned char *base;
	long page;
	uintptr_t vdso, vvar;
	int not_a_clock_fd;
} arena;

#define PAGE(n) (arena.base + (n) * arena.page)
#define CANARY_PAGE PAGE(4)

static uintptr_t find_vvar(void)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[256];
	unsigned long lo = 0;

	while (f && fgets(line, sizeof(line), f)) {
		if (strstr(line, "[vvar]") && sscanf(line, "%lx-", &lo) == 1)
			break;
		lo = 0;
	}
	if (f)
		fclose(f);
	return lo;
}

int vk_abi_init(void)
{
	arena.page = sysconf(_SC_PAGESIZE);
	arena.base = mmap(NULL, 5 * arena.page, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (arena.base == MAP_FAILED)
		return -1;
	memset(arena.base, 0x42, 5 * arena.page);
	if (munmap(PAGE(1), arena.page) || mprotect(PAGE(2), arena.page, PROT_NONE) ||
	    mprotect(PAGE(3), arena.page, PROT_READ))
		return -1;
	arena.vdso = getauxval(AT_SYSINFO_EHDR);
	arena.vvar = find_vvar();
	arena.not_a_clock_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	return 0;
}

const char *vk_ptr_name(enum vk_ptr p)
{
	static const char *const names[VK_NPTRS] = {
		[VK_PTR_VALID] = "valid", [VK_PTR_NULL] = "NULL",
		[VK_PTR_UNMAPPED] = "unmapped", [VK_PTR_PROT_NONE] = "PROT_NONE",
		[VK_PTR_READONLY] = "read-only", [VK_PTR_VDSO] = "vdso-text",
		[VK_PTR_VVAR] = "vvar", [VK_PTR_STRADDLE] = "straddle",
		[VK_PTR_MISALIGNED] = "misaligned", [VK_PTR_KERNEL] = "kernel-half",
		[VK_PTR_MAX] = "UINTPTR_MAX",
	};

	return names[p];
}

/* The kernel's half: the top of the address space, never the user's. */
static uintptr_t kernel_address(void)
{
	return sizeof(void *) == 8 ? (uintptr_t)0xffff800000001000ull : (uintptr_t)0xfffff000u;
}

static void *ptr(enum vk_ptr kind, int slot)
{
	switch (kind) {
	case VK_PTR_VALID: return CANARY_PAGE + SLOT_OFF(slot);
	case VK_PTR_NULL: return NULL;
	case VK_PTR_UNMAPPED: return PAGE(1) + 64;
	case VK_PTR_PROT_NONE: return PAGE(2) + 64;
	case VK_PTR_READONLY: return PAGE(3) + 64;
	case VK_PTR_VDSO: return (void *)(arena.vdso + 64);
	case VK_PTR_VVAR: return (void *)(arena.vvar + 64);
	case VK_PTR_STRADDLE: return PAGE(1) - 4;
	case VK_PTR_MISALIGNED: return CANARY_PAGE + SLOT_OFF(slot) + 1;
	case VK_PTR_KERNEL: return (void *)kernel_address();
	default: return (void *)UINTPTR_MAX;
	}
}

void *vk_abi_ptr(enum vk_ptr kind)
{
	return ptr(kind, 0);
}

/* What one call did. */
struct outcome {
	int done;		/* 1 returned, 2 killed by a signal */
	long ret;
	int sig, code;
	uintptr_t addr;
	int inside[3];		/* bytes written in each valid object, getrandom's output aside */
	int padding;		/* bytes written in the objects' padding */
	int outside;		/* bytes written elsewhere in the canary page */
	int first_outside;	/* the first such byte's offset, or -1 */
};

/* Object sizes by shape and argument, for the canary accounting. */
static size_t object_size(enum vk_func f, int arg)
{
	int t64 = vk_funcs[f].time64;

	switch (vk_funcs[f].shape) {
	case VK_SHAPE_CLOCK_TS: return t64 ? sizeof(struct vk_kts64) : sizeof(struct vk_kts);
	case VK_SHAPE_TV_TZ: return arg == 0 ? sizeof(struct vk_ktv) : 2 * sizeof(int);
	case VK_SHAPE_TIME: return sizeof(vk_klong);
	case VK_SHAPE_GETCPU: return arg < 2 ? sizeof(unsigned) : 128;
	default: return 16;
	}
}

/*
 * Where an object has padding, [*lo, *hi): sparc64's timeval, an int
 * tv_usec after a long tv_sec. A store to a struct may change its padding
 * (C11 6.2.6.1), so those bytes are counted apart from its value's.
 */
static void object_padding(enum vk_func f, int arg, long *lo, long *hi)
{
	*lo = *hi = 0;
	if (vk_funcs[f].shape == VK_SHAPE_TV_TZ && arg == 0) {
		*lo = offsetof(struct vk_ktv, usec) + sizeof(((struct vk_ktv *)0)->usec);
		*hi = sizeof(struct vk_ktv);
	}
}

/* The child's state: shared with its signal handler. */
static struct {
	int fd;
	const struct vk_abi_case *c;
	unsigned char canary;
	unsigned char written[4096];
	long output_lo, output_hi;	/* getrandom's output in the canary page */
	struct outcome out;
} child_state;

/*
 * Which canary bytes changed, and where, against the current canary.
 * getrandom's output is random, and a random byte may equal any canary,
 * so the bytes it returned are never judged by their value: they are the
 * call's output by its own count. Every other byte must keep its canary,
 * which is exact.
 */
static void scan(void)
{
	long n = arena.page < 4096 ? arena.page : 4096;

	for (long i = 0; i < n; i++) {
		if (i >= child_state.output_lo && i < child_state.output_hi)
			continue;
		child_state.written[i] |= CANARY_PAGE[i] != child_state.canary;
	}
}

/* Where the ret bytes getrandom says it wrote lie in the canary page. */
static void random_output(const struct vk_abi_case *c, long ret)
{
	long start = SLOT_OFF(0) + (c->ptr[0] == VK_PTR_MISALIGNED), n = arena.page;

	child_state.output_lo = child_state.output_hi = 0;
	if (vk_funcs[c->func].kind != VK_KIND_GETRANDOM || ret <= 0 ||
	    (c->ptr[0] != VK_PTR_VALID && c->ptr[0] != VK_PTR_MISALIGNED))
		return;
	child_state.output_lo = start;
	child_state.output_hi = ret < n - start ? start + ret : n;
}

/* Which valid object the canary byte at off is in, or -1; *pad whether
 * it is that object's padding. */
static int in_object(long off, int *pad)
{
	const struct vk_abi_case *c = child_state.c;
	long lo, hi;

	for (int i = 0; i < 3; i++) {
		long start = SLOT_OFF(i) + (c->ptr[i] == VK_PTR_MISALIGNED);

		if ((c->ptr[i] == VK_PTR_VALID || c->ptr[i] == VK_PTR_MISALIGNED) &&
		    off >= start && off < start + (long)object_size(c->func, i)) {
			object_padding(c->func, i, &lo, &hi);
			*pad = off - start >= lo && off - start < hi;
			return i;
		}
	}
	return -1;
}

static void finish(void)
{
	struct outcome *o = &child_state.out;
	long n = arena.page < 4096 ? arena.page : 4096;
	int which, pad;

	scan();
	o->first_outside = -1;
	for (long i = 0; i < n; i++) {
		if (!child_state.written[i])
			continue;
		which = in_object(i, &pad);
		if (which >= 0 && pad) {
			o->padding++;
		} else if (which >= 0) {
			o->inside[which]++;
		} else {
			o->outside++;
			if (o->first_outside < 0)
				o->first_outside = i;
		}
	}
	vk_write_all(child_state.fd, o, sizeof(*o));
	_exit(0);
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	child_state.out.done = 2;
	child_state.out.sig = sig;
	child_state.out.code = si->si_code;
	child_state.out.addr = (uintptr_t)si->si_addr;
	finish();
}

static void catch_faults(void)
{
	static unsigned char altstack[64 * 1024];
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP };
	struct sigaction sa = { .sa_sigaction = on_fault, .sa_flags = SA_SIGINFO | SA_ONSTACK };
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };

	sigaltstack(&ss, NULL);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

struct job {
	const struct vk_callset *cs;
	enum vk_path p;
	const struct vk_abi_case *c;
};

/* getrandom's state where the case wants it; on paths that take one. */
static void *state_for(const struct job *j, size_t *len)
{
	struct {
		uint32_t size, prot, flags, reserved[13];
	} params = { 0 };
	const struct vk_abi_case *c = j->c;
	unsigned char *map;

	*len = 0;
	if (vk_funcs[c->func].shape != VK_SHAPE_GETRANDOM ||
	    (j->p != VK_PATH_VDSO && j->p != VK_PATH_IMPL) ||
	    j->cs->fn[j->p][c->func].getrandom(NULL, 0, 0, &params, ~0UL) || !params.size)
		return NULL;
	*len = params.size + c->state_len_delta;
	switch (c->state) {
	case VK_PTR_VALID:
	case VK_PTR_STRADDLE:
		map = mmap(NULL, 2 * arena.page, params.prot, params.flags, -1, 0);
		if (map == MAP_FAILED)
			return NULL;
		return c->state == VK_PTR_VALID ? map : map + arena.page - params.size / 2;
	default:
		return ptr(c->state, 0);
	}
}

static long call(const struct job *j, void *state, size_t state_len)
{
	union vk_fn fn = j->cs->fn[j->p][j->c->func];
	const struct vk_abi_case *c = j->c;

	switch (vk_funcs[c->func].shape) {
	case VK_SHAPE_CLOCK_TS:
		return fn.clock(c->clock, ptr(c->ptr[0], 0));
	case VK_SHAPE_TV_TZ:
		return fn.tod(ptr(c->ptr[0], 0), ptr(c->ptr[1], 1));
	case VK_SHAPE_TIME:
		return fn.time(ptr(c->ptr[0], 0));
	case VK_SHAPE_GETCPU:
		return fn.getcpu(ptr(c->ptr[0], 0), ptr(c->ptr[1], 1), ptr(c->ptr[2], 2));
	default:
		return fn.getrandom(ptr(c->ptr[0], 0), c->len, c->flags, state, state_len);
	}
}

/*
 * In the child: the call once over each canary. A written byte hides only
 * where it matched every one: a fixed value matches one at most, and a
 * value that changes from call to call (a CPU-time clock's nanoseconds)
 * matches all four with odds of 2^-32 a byte. Over two canaries those odds
 * were 2^-16, and a byte hid in a check-xarch run (i386-on-x86_64,
 * clock_gettime64 of clock id -6: 15 bytes written by the syscall, 16 by
 * the vDSO).
 */
static const unsigned char canaries[] = { 0xa5, 0x5a, 0x3c, 0xe1 };

static void child(void *ctx, int fd)
{
	struct vk_callset loaded;
	struct job mine = *(const struct job *)ctx, *j = &mine;
	size_t state_len;
	void *state;

	mine.cs = vk_callset_child(mine.cs, VK_PATH_BIT(mine.p), &loaded);
	state = state_for(j, &state_len);

	child_state.fd = fd;
	child_state.c = j->c;
	catch_faults();
	for (size_t pass = 0; pass < sizeof(canaries); pass++) {
		child_state.canary = canaries[pass];
		memset(CANARY_PAGE, child_state.canary, arena.page);
		random_output(j->c, 0);
		child_state.out.ret = call(j, state, state_len);
		random_output(j->c, child_state.out.ret);
		scan();
	}
	child_state.out.done = 1;
	finish();
}

/* run_case's: vdsokit could not run the case (no fork), which is its own
 * error, not the path's failure. */
#define NOT_RUN (-2)

static int run_case(const struct vk_abi *a, enum vk_path p, const struct vk_abi_case *c,
		    struct outcome *o, char *why, size_t len)
{
	struct job j = { a->cs, p, c };
	struct vk_isolated iso;
	int ok;

	if (vk_isolate(child, &j, a->timeout, &iso)) {
		vk_isolate_not_tested(&iso, why, len);
		return NOT_RUN;
	}
	ok = iso.len == sizeof(*o);
	if (ok)
		memcpy(o, iso.data, sizeof(*o));
	else
		vk_isolated_describe(&iso, a->timeout, why, len);
	vk_isolated_free(&iso);
	return ok ? 0 : -1;
}

static const char *sig_name(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGILL: return "SIGILL";
	case SIGFPE: return "SIGFPE";
	default: return "SIGTRAP";
	}
}

static void describe(char *buf, size_t len, const struct outcome *o)
{
	int n;

	if (o->done == 2)
		n = snprintf(buf, len, "%s (si_code %d, address %#lx)", sig_name(o->sig), o->code,
			     (unsigned long)o->addr);
	else if (vk_is_err(o->ret))
		n = snprintf(buf, len, "returned -%s (%ld)", vk_errno_name(-o->ret), o->ret);
	else
		n = snprintf(buf, len, "returned %ld", o->ret);
	if (n > 0 && (size_t)n < len && o->padding)
		n += snprintf(buf + n, len - n, ", wrote %d bytes of padding", o->padding);
	if (n > 0 && (size_t)n < len && o->outside)
		snprintf(buf + n, len - n, ", wrote %d bytes outside its objects (first at +%d)",
			 o->outside, o->first_outside);
}

static int same_return(const struct vk_abi_case *c, const struct outcome *p,
		       const struct outcome *s)
{
	if (vk_is_err(p->ret) || vk_is_err(s->ret))
		return p->ret == s->ret;
	/* time() returns the time, which moves; everything else a fixed value. */
	return vk_funcs[c->func].kind == VK_KIND_TIME || p->ret == s->ret;
}

/* The same bytes of each object's value, and nothing more outside them;
 * padding aside. */
static int same_values(const struct outcome *p, const struct outcome *s)
{
	for (int i = 0; i < 3; i++) {
		if (p->inside[i] != s->inside[i])
			return 0;
	}
	return p->outside <= s->outside;
}

/* The syscall refused a bad pointer: EFAULT, or a short count up to it. */
static int refused(const struct vk_abi_case *c, const struct outcome *s)
{
	if (s->done != 1)
		return 0;
	if (s->ret == -EFAULT)
		return 1;
	return vk_funcs[c->func].kind == VK_KIND_GETRANDOM && s->ret >= 0 &&
	       (size_t)s->ret < c->len;
}

/* Whether a pointer of c is the kernel's: its half, or UINTPTR_MAX. */
static int kernel_pointer(const struct vk_abi_case *c)
{
	for (int k = 0; k < 3; k++) {
		if (c->ptr[k] == VK_PTR_KERNEL || c->ptr[k] == VK_PTR_MAX)
			return 1;
	}
	return vk_funcs[c->func].shape == VK_SHAPE_GETRANDOM &&
	       (c->state == VK_PTR_KERNEL || c->state == VK_PTR_MAX);
}

/*
 * A memory fault, the one way the vDSO is documented to fail: SIGSEGV;
 * SIGBUS for a misaligned address, which arm64 checks before the mapping
 * when a 32-bit task stores to UINTPTR_MAX; and SIGBUS from the kernel
 * (SI_KERNEL, no address) for a kernel address on MIPS. There a user
 * access to a kernel segment is an address error, not a TLB fault, and
 * do_ade (arch/mips/kernel/unaligned.c) answers every one from user mode
 * with force_sig(SIGBUS): at once without TIF_FIXADE, and through its
 * emulation, whose access_ok() refuses the address, with it. A bus error
 * of any other kind means something else went wrong.
 */
static int faulted(const struct vk_abi_case *c, const struct outcome *p)
{
	/* si_code <= 0: sent by kill() or raise(), as by code that chose to
	 * die, which is no memory access. */
	if (p->done != 2 || p->code <= 0)
		return 0;
	return p->sig == SIGSEGV || (p->sig == SIGBUS && p->code == BUS_ADRALN) ||
	       (p->sig == SIGBUS && p->code == SI_KERNEL && kernel_pointer(c));
}

/* Whether a pointer libc declares __nonnull is NULL in this case. */
static int libc_null_nonnull(const struct vk_abi_case *c)
{
	for (int k = 0; k < 3; k++) {
		if ((vk_funcs[c->func].libc_nonnull >> k & 1) && c->ptr[k] == VK_PTR_NULL)
			return 1;
	}
	return 0;
}

/*
 * POSIX leaves what gettimeofday does with a non-NULL tz unspecified, and
 * libc may write it even where the call then fails: static glibc 2.36 on
 * x86 zeroes one byte of it (memset with sizeof of a void *) before the
 * syscall. The same result, and no other byte written, is libc's right.
 */
static int libc_tz_only(const struct vk_abi_case *c, const struct outcome *p,
			const struct outcome *s)
{
	return vk_funcs[c->func].kind == VK_KIND_TOD && p->done == 1 && s->done == 1 &&
	       p->ret == s->ret && p->inside[0] == s->inside[0] && p->outside <= s->outside;
}

/*
 * The divergences the vDSO's ABI allows, by name. The kernel documents
 * that its vDSO functions access memory directly: a pointer the syscall
 * refuses may fault instead. getrandom's state is the vDSO's alone (the
 * syscall has none) and is trusted, but one that crosses a page boundary
 * is refused with EFAULT. libc may fault on a NULL it declares __nonnull,
 * and may write a non-NULL tz as it likes. A struct's padding takes any
 * value when it is stored to (C11 6.2.6.1), so writing it or not is no
 * divergence when every other byte and the return value agree.
 */
static const char *allowed(const struct vk_abi_case *c, enum vk_path path,
			   const struct outcome *p, const struct outcome *s)
{
	int bad_state = vk_funcs[c->func].shape == VK_SHAPE_GETRANDOM && c->state != VK_PTR_VALID;

	if (faulted(c, p) && refused(c, s))
		return "fault-for-efault";
	if (path == VK_PATH_LIBC && faulted(c, p) && libc_null_nonnull(c))
		return "libc-nonnull";
	if (path == VK_PATH_LIBC && libc_tz_only(c, p, s))
		return "libc-tz-unspecified";
	if (bad_state && c->state == VK_PTR_STRADDLE && p->done == 1 && p->ret == -EFAULT)
		return "getrandom-state-straddle";
	if (bad_state && faulted(c, p))
		return "getrandom-state-is-vdso-only";
	if (p->done == 1 && s->done == 1 && same_return(c, p, s) && same_values(p, s))
		return "padding-unspecified";
	return NULL;
}

static void api_name(char *buf, size_t len, const struct vk_abi_case *c)
{
	struct vk_clock clock = { .id = c->clock };
	const char *named = vk_clock_name(c->clock);

	if (vk_funcs[c->func].shape != VK_SHAPE_CLOCK_TS) {
		snprintf(buf, len, "%s", vk_funcs[c->func].name);
		return;
	}
	snprintf(clock.name, sizeof(clock.name), "%s", named ? named : c->clock_name);
	vk_clock_api(buf, len, c->func, &clock);
}

/* A call this process's handler caught dying, told as the watchdog's
 * are: "impl (LIB) was killed by SIGSEGV (...) in clock_gettime
 * (clock-gettime-monotonic)". */
static void crashed(struct vk_results *rs, struct vk_result *r, const char *lib,
		    enum vk_path path, const struct vk_abi_case *c, const struct outcome *p,
		    const char *ds, const struct outcome *s)
{
	char api[40];

	api_name(api, sizeof(api), c);
	vk_result_fail(rs, r, "unexpected: %s%s%s%s was killed by %s (si_code %d, address %#lx) in %s (%s), wrote %d/%d/%d bytes; syscall %s (wrote %d/%d/%d bytes)",
		       vk_path_name(path), lib ? " (" : "", lib ? lib : "", lib ? ")" : "",
		       sig_name(p->sig), p->code, (unsigned long)p->addr, vk_funcs[c->func].name,
		       api, p->inside[0], p->inside[1], p->inside[2], ds, s->inside[0],
		       s->inside[1], s->inside[2]);
}

/* Every pointer valid; for getrandom 16 bytes and a proper state. */
static int plain(const struct vk_abi_case *c)
{
	return c->ptr[0] == VK_PTR_VALID && c->ptr[1] == VK_PTR_VALID &&
	       c->ptr[2] == VK_PTR_VALID && c->state == VK_PTR_VALID && !c->state_len_delta &&
	       (vk_funcs[c->func].shape != VK_SHAPE_GETRANDOM || c->len == 16);
}

static void classify(struct vk_results *rs, struct vk_result *r, const char *lib,
		     enum vk_path path, const struct vk_abi_case *c, const struct outcome *p,
		     const struct outcome *s)
{
	const char *name = vk_path_name(path), *rule;
	char dp[128], ds[128];

	describe(dp, sizeof(dp), p);
	describe(ds, sizeof(ds), s);
	r->calls = 2;
	if (p->done == 1 && s->done == 1 && same_return(c, p, s) && same_values(p, s) &&
	    p->padding == s->padding)
		snprintf(r->detail, sizeof(r->detail), "identical: %s", dp);
	else if ((rule = allowed(c, path, p, s)))
		snprintf(r->detail, sizeof(r->detail), "allowed (%s): %s %s; syscall %s", rule,
			 name, dp, ds);
	else if (p->done == 2)
		crashed(rs, r, lib, path, c, p, ds, s);
	else
		vk_result_fail(rs, r, "unexpected: %s %s (wrote %d/%d/%d bytes); syscall %s (wrote %d/%d/%d bytes)",
			       name, dp, p->inside[0], p->inside[1], p->inside[2], ds,
			       s->inside[0], s->inside[1], s->inside[2]);
	if (r->status == VK_FAIL && p->done == 1 && s->done == 1 && !same_return(c, p, s)) {
		vk_result_returns(r, p->ret, s->ret);
		if (plain(c))
			vk_result_plain(r, c->flags, p->ret, s->ret);
	}
}

static void run_path(struct vk_abi *a, const struct vk_abi_case *c, size_t n, enum vk_path p,
		     const struct outcome *sys, const int *sys_err)
{
	/* A library's crash, exit or hang is told with its name. */
	const char *lib = p == VK_PATH_IMPL ? a->cs->impl_path : NULL;
	int hangs = 0, ran;
	char api[40], why[128];
	struct outcome o;

	for (size_t i = 0; i < n; i++) {
		struct vk_result *r;

		api_name(api, sizeof(api), &c[i]);
		r = vk_results_add(a->rs, api, p, c[i].args);
		if (hangs >= MAX_HANGS) {
			vk_result_skip(r, "not run: %d cases of this API hung", hangs);
		} else if (sys_err[i] == NOT_RUN) {
			vk_result_error(a->rs, r, "not tested: vdsokit could not run the syscall's case");
		} else if (sys_err[i]) {
			vk_result_skip(r, "the syscall's own outcome could not be had");
		} else if ((ran = run_case(a, p, &c[i], &o, why, sizeof(why))) == NOT_RUN) {
			vk_result_error(a->rs, r, "%s", why);
		} else if (ran) {
			hangs += strstr(why, "hung") != NULL;
			vk_result_fail(a->rs, r, "unexpected: %s%s%s%s %s%s", vk_path_name(p),
				       lib ? " (" : "", lib ? lib : "", lib ? ")" : "",
				       strncmp(why, "killed", 6) ? "" : "was ", why);
		} else {
			classify(a->rs, r, lib, p, &c[i], &o, &sys[i]);
		}
	}
}

/* The syscall's outcome against the one the case expects of it. */
static void judge_syscall(struct vk_abi *a, const struct vk_abi_case *c, const struct outcome *s,
			  const char *why)
{
	char api[40], got[128];
	struct vk_result *r;

	api_name(api, sizeof(api), c);
	r = vk_results_add(a->rs, api, VK_PATH_SYSCALL, c->args);
	r->calls = 2;
	if (!s && !strncmp(why, "not tested", 10)) {
		vk_result_error(a->rs, r, "%s", why);
		return;
	}
	if (!s) {
		vk_result_fail(a->rs, r, "the syscall was %s", why);
		return;
	}
	describe(got, sizeof(got), s);
	if (s->done == 1 && s->ret == -c->sys_errno)
		snprintf(r->detail, sizeof(r->detail), "as expected: %s", got);
	else if (c->sys_errno)
		vk_result_fail(a->rs, r, "the syscall %s, not -%s", got, vk_errno_name(c->sys_errno));
	else
		vk_result_fail(a->rs, r, "the syscall %s, not 0", got);
}

/* What a SKIP of all the cases is under: their API when they share one,
 * as a run of one API's cases does, else their function. */
static void cases_name(char *buf, size_t len, const struct vk_abi_case *c, size_t n)
{
	char other[40];

	api_name(buf, len, &c[0]);
	for (size_t i = 1; i < n; i++) {
		api_name(other, sizeof(other), &c[i]);
		if (strcmp(other, buf)) {
			snprintf(buf, len, "%s", vk_funcs[c[0].func].name);
			return;
		}
	}
}

/* A getrandom before the CRNG is ready blocks, on every path alike: the
 * kernel's rule, not a hang to fail. Each path says so, or why it has no
 * getrandom. */
static void not_ready(struct vk_abi *a, const char *all, enum vk_func f)
{
	const char *ready = VK_CRNG_NOT_READY;

	for (int p = 0; p < VK_NPATHS; p++) {
		if (p != VK_PATH_SYSCALL && !(a->paths & VK_PATH_BIT(p)))
			continue;
		vk_result_skip(vk_results_add(a->rs, all, p, "all"), "%s",
			       vk_callset_has(a->cs, p, f) ? ready : a->cs->why[p][f]);
	}
}

void vk_abi_run(struct vk_abi *a, const struct vk_abi_case *c, size_t n)
{
	struct outcome *sys = calloc(n, sizeof(*sys));
	int *sys_err = calloc(n, sizeof(*sys_err));
	char why[128], all[40];

	cases_name(all, sizeof(all), c, n);
	if (!sys || !sys_err || !vk_callset_has(a->cs, VK_PATH_SYSCALL, c[0].func)) {
		if (sys && sys_err)
			vk_result_skip(vk_results_add(a->rs, all, VK_PATH_SYSCALL, "all"), "%s",
				       vk_no_reference(a->cs, c[0].func));
		else
			vk_result_error(a->rs, vk_results_add(a->rs, all, VK_PATH_SYSCALL, "all"),
					"not tested: vdsokit could not allocate its %zu cases", n);
		free(sys);
		free(sys_err);
		return;
	}
	if (vk_funcs[c[0].func].kind == VK_KIND_GETRANDOM && !vk_crng_ready()) {
		not_ready(a, all, c[0].func);
		free(sys);
		free(sys_err);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		/* 0: the syscall's outcome is had; else run_case's why not */
		sys_err[i] = run_case(a, VK_PATH_SYSCALL, &c[i], &sys[i], why, sizeof(why));
		/* A syscall that died or hung is a failure, named, however
		 * the paths' cases that had nothing to compare with SKIP. */
		if (a->judge_syscall || sys_err[i])
			judge_syscall(a, &c[i], sys_err[i] ? NULL : &sys[i], why);
	}
	for (int p = 0; p < VK_NPATHS; p++) {
		if (p == VK_PATH_SYSCALL || !(a->paths & VK_PATH_BIT(p)))
			continue;
		if (!vk_callset_has(a->cs, p, c[0].func)) {
			vk_result_skip(vk_results_add(a->rs, all, p, "all"), "%s",
				       a->cs->why[p][c[0].func]);
			continue;
		}
#ifdef VK_ASAN
		/* ASan checks the pointers libc is given before libc sees them. */
		if (p == VK_PATH_LIBC) {
			vk_result_skip(vk_results_add(a->rs, all, p, "all"),
				       "libc's calls go through ASan's interceptors in this build");
			continue;
		}
#endif
		/* libc's path to getcpu is sched_getcpu(), which takes no pointers. */
		if (p == VK_PATH_LIBC && vk_funcs[c[0].func].kind == VK_KIND_GETCPU) {
			vk_result_skip(vk_results_add(a->rs, "getcpu", p, "all"),
				       "libc's sched_getcpu() takes no pointers");
			continue;
		}
		run_path(a, c, n, p, sys, sys_err);
	}
	free(sys);
	free(sys_err);
}

/* Case lists, one builder per argument shape. */
struct builder {
	struct vk_abi_case *c;
	size_t n, max;
	enum vk_func f;
};

static struct vk_abi_case *next(struct builder *b)
{
	struct vk_abi_case *c;

	if (b->n >= b->max)
		return NULL;
	c = &b->c[b->n++];
	memset(c, 0, sizeof(*c));
	c->func = b->f;
	return c;
}

static void clock_case(struct builder *b, int id, const char *name, enum vk_ptr p)
{
	struct vk_abi_case *c = next(b);

	if (!c)
		return;
	c->clock = id;
	snprintf(c->clock_name, sizeof(c->clock_name), "%s", name);
	c->ptr[0] = p;
	snprintf(c->args, sizeof(c->args), "ts:%s", vk_ptr_name(p));
}

/* Every id in -16..40, the extremes and the special clocks, with a valid
 * pointer; every bad pointer with a few ids the vDSO and kernel treat
 * differently. */
static void clock_cases(struct builder *b)
{
	static const int few[] = { CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_MONOTONIC_COARSE,
				   CLOCK_PROCESS_CPUTIME_ID, 12 };
	struct vk_clock all[VK_MAX_CLOCKS];
	int n = vk_clocks_all(all, VK_MAX_CLOCKS);
	char name[24];

	for (int id = -16; id <= 40; id++) {
		snprintf(name, sizeof(name), "id:%d", id);
		clock_case(b, id, name, VK_PTR_VALID);
	}
	for (int i = 0; i < n; i++) {
		if (all[i].id < -16 || all[i].id > 40)
			clock_case(b, all[i].id, all[i].name, VK_PTR_VALID);
	}
	/* An fd that is open but no clock: its fd clock id is invalid. */
	clock_case(b, (int)(~(unsigned)arena.not_a_clock_fd << 3) | 3, "fd:not-a-clock",
		   VK_PTR_VALID);
	for (size_t i = 0; i < ARRAY_SIZE(few); i++) {
		snprintf(name, sizeof(name), "id:%d", few[i]);
		for (int p = VK_PTR_NULL; p < VK_NPTRS; p++)
			clock_case(b, few[i], name, p);
	}
}

static void tod_cases(struct builder *b)
{
	for (int tv = 0; tv < VK_NPTRS; tv++) {
		for (int tz = 0; tz < VK_NPTRS; tz++) {
			struct vk_abi_case *c = next(b);

			if (!c)
				return;
			c->ptr[0] = tv;
			c->ptr[1] = tz;
			snprintf(c->args, sizeof(c->args), "tv:%s,tz:%s", vk_ptr_name(tv),
				 vk_ptr_name(tz));
		}
	}
}

static void time_cases(struct builder *b)
{
	for (int t = 0; t < VK_NPTRS; t++) {
		struct vk_abi_case *c = next(b);

		if (!c)
			return;
		c->ptr[0] = t;
		snprintf(c->args, sizeof(c->args), "t:%s", vk_ptr_name(t));
	}
}

static void getcpu_cases(struct builder *b)
{
	static const enum vk_ptr kinds[] = { VK_PTR_VALID, VK_PTR_NULL, VK_PTR_UNMAPPED,
					     VK_PTR_READONLY, VK_PTR_KERNEL };
	const size_t k = ARRAY_SIZE(kinds);

	for (size_t i = 0; i < k * k * k; i++) {
		struct vk_abi_case *c = next(b);

		if (!c)
			return;
		c->ptr[0] = kinds[i % k];
		c->ptr[1] = kinds[i / k % k];
		c->ptr[2] = kinds[i / k / k];
		snprintf(c->args, sizeof(c->args), "cpu:%s,node:%s,cache:%s",
			 vk_ptr_name(c->ptr[0]), vk_ptr_name(c->ptr[1]), vk_ptr_name(c->ptr[2]));
	}
}

static void random_case(struct builder *b, enum vk_ptr buf, size_t len, unsigned flags,
			enum vk_ptr state, long delta, const char *what)
{
	struct vk_abi_case *c = next(b);

	if (!c)
		return;
	c->ptr[0] = buf;
	c->len = len;
	c->flags = flags;
	c->state = state;
	c->state_len_delta = delta;
	snprintf(c->args, sizeof(c->args), "%s", what);
}

/*
 * A NULL buffer with each flag LTP's getrandom01 passes, and INSECURE,
 * asking for nothing and for 16 bytes: a flag may send the vDSO another
 * way (RANDOM to the syscall) before it looks at the buffer.
 */
static void null_buffer_cases(struct builder *b)
{
	static const struct { unsigned flags; const char *name; } fl[] = {
		{ 0, "" }, { GRND_NONBLOCK, ",flags:NONBLOCK" }, { GRND_RANDOM, ",flags:RANDOM" },
		{ GRND_INSECURE, ",flags:INSECURE" },
		{ GRND_RANDOM | GRND_NONBLOCK, ",flags:RANDOM|NONBLOCK" },
	};
	char what[48];

	for (size_t i = 0; i < ARRAY_SIZE(fl); i++) {
		snprintf(what, sizeof(what), "buf:NULL,len:0%s", fl[i].name);
		random_case(b, VK_PTR_NULL, 0, fl[i].flags, VK_PTR_VALID, 0, what);
		/* buf:NULL is the one with flags 0 and 16 bytes. */
		if (!fl[i].flags)
			continue;
		snprintf(what, sizeof(what), "buf:NULL%s", fl[i].name);
		random_case(b, VK_PTR_NULL, 16, fl[i].flags, VK_PTR_VALID, 0, what);
	}
}

static void getrandom_cases(struct builder *b)
{
	static const enum vk_ptr states[] = { VK_PTR_NULL, VK_PTR_STRADDLE, VK_PTR_UNMAPPED,
					      VK_PTR_READONLY, VK_PTR_PROT_NONE };
	char what[48];

	for (int p = 0; p < VK_NPTRS; p++) {
		snprintf(what, sizeof(what), "buf:%s", vk_ptr_name(p));
		random_case(b, p, 16, 0, VK_PTR_VALID, 0, what);
	}
	null_buffer_cases(b);
	/* A huge length into a buffer that ends at a hole: both paths must stop
	 * there, not write on through the process's memory. */
	random_case(b, VK_PTR_STRADDLE, SIZE_MAX, 0, VK_PTR_VALID, 0, "len:SIZE_MAX");
	random_case(b, VK_PTR_STRADDLE, (size_t)INT_MAX + 1, 0, VK_PTR_VALID, 0, "len:2^31");
	random_case(b, VK_PTR_VALID, 16, 0x80, VK_PTR_VALID, 0, "flags:0x80");
	random_case(b, VK_PTR_VALID, 16, ~0u, VK_PTR_VALID, 0, "flags:~0");
	random_case(b, VK_PTR_VALID, 16, GRND_RANDOM | GRND_INSECURE, VK_PTR_VALID, 0,
		    "flags:RANDOM|INSECURE");
	random_case(b, VK_PTR_VALID, 16, 0, VK_PTR_VALID, -1, "state_len:size-1");
	random_case(b, VK_PTR_VALID, 16, 0, VK_PTR_VALID, 1, "state_len:size+1");
	for (size_t i = 0; i < ARRAY_SIZE(states); i++) {
		snprintf(what, sizeof(what), "state:%s", vk_ptr_name(states[i]));
		random_case(b, VK_PTR_VALID, 16, 0, states[i], 0, what);
	}
}

size_t vk_abi_cases(enum vk_func f, struct vk_abi_case *cases, size_t max)
{
	struct builder b = { cases, 0, max, f };

	switch (vk_funcs[f].shape) {
	case VK_SHAPE_CLOCK_TS: clock_cases(&b); break;
	case VK_SHAPE_TV_TZ: tod_cases(&b); break;
	case VK_SHAPE_TIME: time_cases(&b); break;
	case VK_SHAPE_GETCPU: getcpu_cases(&b); break;
	case VK_SHAPE_GETRANDOM: getrandom_cases(&b); break;
	case VK_SHAPE_FUTEX_UNLOCK: break; /* no syscall twin: abi_futex.c's contract */
	}
	return b.n;
}
