// SPDX-License-Identifier: MIT
/*
 * The API table's rows and the look-ups on them, so that every command
 * names, finds and calls an API the same way (api.h).
 */
#include <string.h>
#include <sys/syscall.h>
#include <time.h>

#include "core/base/array.h"
#include "core/base/api.h"

#ifndef SYS_time
#define SYS_time -1
#endif
#ifndef SYS_clock_gettime64
#define SYS_clock_gettime64 -1
#endif
#ifndef SYS_clock_getres_time64
#define SYS_clock_getres_time64 -1
#endif
#ifndef SYS_getrandom
#define SYS_getrandom -1
#endif

#define VK_FUNC(id, name, api, libc, syscall, sysno, shape, kind, every, time64, nonnull,  \
		vsyscall, absent)                                                      \
	[VK_FN_##id] = { name,		   api,		   libc,    syscall,  sysno,            \
			 VK_SHAPE_##shape, VK_KIND_##kind, time64,  nonnull,  vsyscall, absent },
const struct vk_func_info vk_funcs[VK_NALLFUNCS] = {
#include "core/base/apis.def"
};

/* The functions every command calls come first, below VK_NFUNCS; vk_napis
 * counts the others' APIs as one each, so none of them takes a clock. */
#define VK_FUNC(id, name, api, libc, syscall, sysno, shape, kind, every, ...)             \
	_Static_assert((every) == (VK_FN_##id < VK_NFUNCS), name ": the rows of every 1 first"); \
	_Static_assert((every) || VK_SHAPE_##shape != VK_SHAPE_CLOCK_TS, name ": abi alone calls no clock's");
#include "core/base/apis.def"

/* The named clocks, by their id in <linux/time.h>; 10 has no name. X
 * gets fn and prefix too, for the APIs of a function of a clock. */
#define VK_CLOCKS(X, fn, prefix)                                                \
	X(0, "realtime", fn, prefix)                                            \
	X(1, "monotonic", fn, prefix)                                           \
	X(2, "process-cputime", fn, prefix)                                     \
	X(3, "thread-cputime", fn, prefix)                                      \
	X(4, "monotonic-raw", fn, prefix)                                       \
	X(5, "realtime-coarse", fn, prefix)                                     \
	X(6, "monotonic-coarse", fn, prefix)                                    \
	X(7, "boottime", fn, prefix)                                            \
	X(8, "realtime-alarm", fn, prefix)                                      \
	X(9, "boottime-alarm", fn, prefix)                                      \
	X(11, "tai", fn, prefix)

/* A function of a clock (shape CLOCK_TS) has an API per named clock, the
 * others one: by shape, which of the two a row of apis.def gives. A shape
 * missing here does not compile. */
#define CLOCKED_CLOCK_TS(clocked, plain) clocked
#define CLOCKED_TV_TZ(clocked, plain) plain
#define CLOCKED_TIME(clocked, plain) plain
#define CLOCKED_GETCPU(clocked, plain) plain
#define CLOCKED_GETRANDOM(clocked, plain) plain
#define CLOCKED_FUTEX_UNLOCK(clocked, plain) plain

#define CLOCK_API(clock, n, fn, prefix) { prefix n, fn, clock },
#define PLAIN_API(fn, api) { api, fn, -1 },

/* The functions of a clock's APIs first, then the others', each in
 * apis.def's order, which puts those abi alone calls last. */
const struct vk_api vk_apis[] = {
#define VK_FUNC(id, name, api, libc, syscall, sysno, shape, ...)                         \
	CLOCKED_##shape(VK_CLOCKS(CLOCK_API, VK_FN_##id, api), )
#include "core/base/apis.def"
#define VK_FUNC(id, name, api, libc, syscall, sysno, shape, ...)                         \
	CLOCKED_##shape(, PLAIN_API(VK_FN_##id, api))
#include "core/base/apis.def"
};

/* All but the rows of the functions abi alone calls, which come last. */
const size_t vk_nlisted = ARRAY_SIZE(vk_apis), vk_napis = ARRAY_SIZE(vk_apis) - (VK_NALLFUNCS - VK_NFUNCS);

const struct vk_api *vk_api_find(const char *name)
{
	for_each_api(a) {
		if (strcmp(a->name, name) == 0)
			return a;
	}
	return NULL;
}

int vk_api_applies(const struct vk_api *api, int is64)
{
	return !(is64 && vk_funcs[api->func].time64);
}

int vk_func_has_time(enum vk_func f)
{
	enum vk_shape s = vk_funcs[f].shape;

	return s == VK_SHAPE_CLOCK_TS || s == VK_SHAPE_TV_TZ || s == VK_SHAPE_TIME;
}

int vk_func_time32(const struct vk_arch *a, enum vk_func f)
{
	return a && !a->is64 && !a->time64 && (a->funcs & VK_FN_BIT(VK_FN_CLOCK_GETTIME64)) &&
	       !vk_funcs[f].time64 && vk_func_has_time(f);
}

const char *vk_clock_name(int clock)
{
#define CLOCK_NAME(id, n, fn, prefix)                                           \
	if (clock == id)                                                        \
		return n;
	VK_CLOCKS(CLOCK_NAME, , )
#undef CLOCK_NAME
	return NULL;
}

/* Built for the host's ABI, vk_funcs has its numbers even where the table has none. */
const long *vk_arch_sysno(const struct vk_arch *a)
{
	static long host[VK_NFUNCS];

	if (!a || a->sysno || a != vk_arch_host())
		return a ? a->sysno : NULL;
	for (int f = 0; f < VK_NFUNCS; f++)
		host[f] = vk_funcs[f].sysno;
	return host;
}
