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

#define VK_FUNC(id, name, libc, syscall, sysno, shape, kind, every, time64, nonnull,       \
		vsyscall, absent)                                                      \
	[VK_FN_##id] = { name,	      libc,    syscall,	 sysno,	   VK_SHAPE_##shape,          \
			 VK_KIND_##kind, time64, nonnull, vsyscall, absent },
const struct vk_func_info vk_funcs[VK_NALLFUNCS] = {
#include "core/base/apis.def"
};

/* The functions every command calls come first, below VK_NFUNCS. */
#define VK_FUNC(id, name, libc, syscall, sysno, shape, kind, every, ...)                  \
	_Static_assert((every) == (VK_FN_##id < VK_NFUNCS), name ": the rows of every 1 first");
#include "core/base/apis.def"

/* The named clocks, by their id in <linux/time.h>; 10 has no name. */
#define VK_CLOCKS(X)                                                            \
	X(0, "realtime")                                                        \
	X(1, "monotonic")                                                       \
	X(2, "process-cputime")                                                 \
	X(3, "thread-cputime")                                                  \
	X(4, "monotonic-raw")                                                   \
	X(5, "realtime-coarse")                                                 \
	X(6, "monotonic-coarse")                                                \
	X(7, "boottime")                                                        \
	X(8, "realtime-alarm")                                                  \
	X(9, "boottime-alarm")                                                  \
	X(11, "tai")

#define CLOCK_ROW_GETTIME(id, n) { "clock-gettime-" n, VK_FN_CLOCK_GETTIME, id },
#define CLOCK_ROW_GETRES(id, n) { "clock-getres-" n, VK_FN_CLOCK_GETRES, id },
#define CLOCK_ROW_GETTIME64(id, n) { "clock-gettime64-" n, VK_FN_CLOCK_GETTIME64, id },
#define CLOCK_ROW_GETRES64(id, n) { "clock-getres-time64-" n, VK_FN_CLOCK_GETRES_TIME64, id },

const struct vk_api vk_apis[] = {
	VK_CLOCKS(CLOCK_ROW_GETTIME)
	VK_CLOCKS(CLOCK_ROW_GETRES)
	VK_CLOCKS(CLOCK_ROW_GETTIME64)
	VK_CLOCKS(CLOCK_ROW_GETRES64)
	{ "gettimeofday", VK_FN_GETTIMEOFDAY, -1 },
	{ "time", VK_FN_TIME, -1 },
	{ "getcpu", VK_FN_GETCPU, -1 },
	{ "getrandom", VK_FN_GETRANDOM, -1 },
	{ "futex-robust-list64-try-unlock", VK_FN_FUTEX_UNLOCK64, -1 },
	{ "futex-robust-list32-try-unlock", VK_FN_FUTEX_UNLOCK32, -1 },
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
#define CLOCK_NAME(id, n)                                                       \
	if (clock == id)                                                        \
		return n;
	VK_CLOCKS(CLOCK_NAME)
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
