// SPDX-License-Identifier: MIT
/*
 * Reads a clock between two syscall reads in each leg of a namespace move,
 * so that a read can be proved to show the namespace's time, not its
 * parent's (timens.h).
 */
#include <stdlib.h>

#include "core/call/targets.h"
#include "core/timens/timens_bracket.h"
#include "core/timens/timens_rules.h"
#include "core/verify/verify_shared.h"

int64_t vk_timens_read_ns(vk_clock_fn fn, int t64, int id)
{
	struct vk_ts ts;

	if (!fn || vk_clock_call(fn, t64, id, &ts))
		return VK_TIMENS_NONE;
	return vk_ts_ns(&ts);
}

void vk_timens_reading_init(struct vk_timens_reading *r)
{
	*r = (struct vk_timens_reading){ .bad_leg = -1, .tightest = INT64_MAX };
}

#define Y2038_NS ((INT64_C(1) << 31) * 1000000000)

void vk_timens_read_leg(vk_clock_fn sys, vk_clock_fn fn, int t64, int id, int leg,
			struct vk_timens_reading *r)
{
	for (int i = 0; i < VK_TIMENS_TRIES; i++) {
		int64_t a = vk_timens_read_ns(sys, VK_TIME32_ABI, id);
		int64_t x = vk_timens_read_ns(fn, t64, id);
		int64_t b = vk_timens_read_ns(sys, VK_TIME32_ABI, id);

		if (!t64 && VK_TIME32_ABI && b >= Y2038_NS) {
			r->past_y2038++;
			continue;
		}
		if (b - a < r->tightest)
			r->tightest = b - a;
		if (r->bad_leg < 0 && (x < a || x > b || a == VK_TIMENS_NONE)) {
			*r = (struct vk_timens_reading){ .bad_leg = leg, .a = a, .x = x, .b = b,
							.tightest = r->tightest };
			return;
		}
	}
}

void vk_timens_judge_reading(const struct vk_timens_reading *r, const char *const *legs,
			     const char *path, int id, int64_t offset, struct vk_result *res,
			     struct vk_results *rs)
{
	const char *clock = vk_clock_name(id);

	if (r->bad_leg >= 0 && r->x == VK_TIMENS_NONE)
		vk_result_fail(rs, res, "%s: reading %s failed on %s", legs[r->bad_leg], clock, path);
	else if (r->bad_leg >= 0 && (r->a == VK_TIMENS_NONE || r->b == VK_TIMENS_NONE))
		vk_result_error(rs, res, "not tested: %s: reading %s failed on the syscall",
			       legs[r->bad_leg], clock);
	else if (r->bad_leg >= 0)
		vk_result_fail(rs, res, "%s: %s by the syscall %lld ns, then %s %lld ns, then the syscall %lld ns",
			       legs[r->bad_leg], clock, (long long)r->a, path, (long long)r->x,
			       (long long)r->b);
	else if (r->tightest == INT64_MAX && r->past_y2038)
		vk_result_skip(res, "%s was past 2^31 s at every read, which a time32 tv_sec cannot hold (the y2038 rule judges that)",
			       clock);
	else if (r->tightest >= llabs(offset))
		vk_result_skip(res, "the tightest bracket was %lld ns, not under the offset of %lld ns: a read of the other namespace's time was not tested",
			       (long long)r->tightest, (long long)offset);
}
