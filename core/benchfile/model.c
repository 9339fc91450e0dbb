// SPDX-License-Identifier: MIT
/* What the bench model's reporters print that its rows only imply. */
#include "core/benchfile/model.h"

void vk_bench_api_calls(const struct vk_bench_result *r, size_t n,
			unsigned long long calls[VK_NPATHS])
{
	for (int p = 0; p < VK_NPATHS; p++)
		calls[p] = 0;
	for (size_t k = 0; k < n; k++)
		calls[r[k].path] += r[k].calls;
}
