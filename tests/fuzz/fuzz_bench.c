// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the bench-file reader (core/benchfile): every input is parsed
 * and validated as a bench file. A file it accepts must keep the reader's
 * promises: each row with samples has them, each a time within bounds,
 * and a positive median for each process; and vk_safe() must leave no
 * control character in the names it shows. A broken promise aborts, so
 * that libFuzzer saves the input. Built and run by tests/cases/fuzz.sh.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/base/safe.h"
#include "core/benchfile/benchfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void broken(const char *what, size_t row)
{
	fprintf(stderr, "fuzz_bench: broken promise: results[%zu]: %s\n", row, what);
	abort();
}

static void check_shown(const char *s, size_t row)
{
	for (const unsigned char *p = (const unsigned char *)vk_safe(s); *p; p++) {
		if (*p < 0x20 || *p == 0x7f || (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
			broken("a control character left in a name shown", row);
	}
}

static void check_series(const struct vk_series *s, size_t row)
{
	check_shown(s->api, row);
	check_shown(s->path, row);
	if (!s->ns)
		return;
	if (!s->n || !s->ngroups || !s->group_med)
		broken("samples without processes", row);
	for (size_t k = 0; k < s->n; k++) {
		if (!isfinite(s->ns[k]) || fabs(s->ns[k]) > 1e9)
			broken("a sample out of bounds", row);
	}
	for (size_t g = 0; g < s->ngroups; g++) {
		if (!(s->group_med[g] > 0) || s->group_med[g] > 1e9)
			broken("a process median that is not a positive time", row);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vk_bench_file f = { .budget = SIZE_MAX };
	struct vk_bf_err e = { "" };
	int status = vk_bench_file_read("input", (const char *)data, size, &f, &e);

	if (status != 0 && status != -1)
		broken("a return other than 0 or -1", 0);
	if (status && !e.msg[0])
		broken("a refusal that does not say why", 0);
	for (size_t i = 0; !status && i < f.n; i++)
		check_series(&f.s[i], i);
	vk_bench_file_free(&f);
	return 0;
}
