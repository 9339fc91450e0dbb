/* SPDX-License-Identifier: MIT */
/* vk_safe() is core's now (core/base/safe.h): the bench-file reader names fields with it. */
#ifndef VK_REPORT_SAFE_H
#define VK_REPORT_SAFE_H

#include "core/base/safe.h"

#endif /* VK_REPORT_SAFE_H */
