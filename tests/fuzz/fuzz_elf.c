// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the ELF reader: every input goes through every
 * accessor of core/image/elf.h (tests/unit/exercise.h). libFuzzer hands the
 * input over in a buffer of exactly its size, so ASan catches a read past
 * either end; a promise of elf.h that does not hold aborts, so that
 * libFuzzer saves the input as a crash too. Built and run by
 * tests/cases/fuzz.sh.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/unit/exercise.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *broken;
	struct vk_elf e;
	int rc;

	rc = exercise_elf(data, size, &e, &broken);
	if (broken) {
		fprintf(stderr, "fuzz_elf: broken promise: %s (vk_elf_open: %d, err: %s)\n",
			broken, rc, e.err);
		abort();
	}
	return 0;
}
