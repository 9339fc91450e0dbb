// SPDX-License-Identifier: MIT
/*
 * The mlockall rule's judgement, on planted fault counts and kernel
 * releases: no page is locked. Linux 7.3 prefaults the vDSO's data on
 * mlockall() (c27e727c9a60): a fault in the first call after it fails
 * from 7.3 on, and is a SKIP that names it before, as the kernel never
 * promised it there. A refused mlockall() tested nothing: never a pass.
 */
#include <errno.h>
#include <string.h>

#include "tests/unit/test.h"
#include "core/verify/verify_shared.h"

int main(void)
{
	char d[512];

	CHECK(!vk_mlock_promised("6.18.44-fc-v1098"), "6.18 does not promise it");
	CHECK(!vk_mlock_promised("7.2.9"), "7.2 does not promise it");
	CHECK(vk_mlock_promised("7.3.0-1-amd64"), "7.3 promises it");
	CHECK(vk_mlock_promised("7.10.1"), "7.10 promises it (not read as 7.1)");
	CHECK(vk_mlock_promised("8.0"), "8.0 promises it");
	CHECK(!vk_mlock_promised("6"), "a release without a minor is not held to it");
	CHECK(!vk_mlock_promised(""), "an empty release is not held to it");

	CHECK(vk_mlock_judge(1, 0, 0, d, sizeof(d)) == VK_PASS && !*d, "no fault passes on 7.3, with no note");
	CHECK(vk_mlock_judge(0, 0, 0, d, sizeof(d)) == VK_PASS, "no fault passes before 7.3");
	CHECK(vk_mlock_judge(1, 0, 2, d, sizeof(d)) == VK_FAIL && strstr(d, "2 page faults") &&
	      strstr(d, "c27e727c9a60"), "2 faults fail on 7.3, naming the commit: %s", d);
	CHECK(vk_mlock_judge(0, 0, 1, d, sizeof(d)) == VK_SKIP && strstr(d, "1 page fault ") &&
	      strstr(d, "before 7.3"), "1 fault before 7.3 is a SKIP that names it: %s", d);
	CHECK(vk_mlock_judge(1, EPERM, 0, d, sizeof(d)) == VK_SKIP && strstr(d, "not tested") &&
	      strstr(d, "refused"), "a refused mlockall() is not a pass on 7.3: %s", d);
	CHECK(vk_mlock_judge(0, ENOMEM, 0, d, sizeof(d)) == VK_SKIP && strstr(d, "refused"),
	      "nor before 7.3: %s", d);
	return test_exit();
}
