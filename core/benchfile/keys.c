// SPDX-License-Identifier: MIT
/*
 * A bench file's key names, stated once for its writer (report/json.c)
 * and its readers (compare, vm's A/B), so the two cannot drift.
 */
#include "core/benchfile/keys.h"

const struct vk_bench_ref_key vk_bench_ref_keys[VK_REF_KINDS] = {
	[VK_REF_CPU] = { VK_BF_REF_CPU, VK_BF_REF_CPU_EACH },
	[VK_REF_LOADS] = { VK_BF_REF_LOADS, VK_BF_REF_LOADS_EACH },
	[VK_REF_SYS] = { VK_BF_REF_SYS, VK_BF_REF_SYS_EACH },
};
