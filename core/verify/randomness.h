/* SPDX-License-Identifier: MIT */
/*
 * Whether bytes look like the output of a random source: byte
 * frequencies (chi-square, both tails), monobit and runs (NIST SP 800-22),
 * and no 16-byte block drawn twice. Each of the first three fails a good
 * source with a probability of VK_RANDOMNESS_ALPHA; a repeated block, with
 * one under 2^-90 on 1 MiB.
 */
#ifndef VK_VERIFY_RANDOMNESS_H
#define VK_VERIFY_RANDOMNESS_H

#include <stddef.h>

#define VK_RANDOMNESS_ALPHA 1e-9
#define VK_RANDOMNESS_BYTES (1u << 20)	/* what verify draws through a path */

/* vk_randomness_judge's: vdsokit could not judge (no memory), not a fail */
#define VK_RANDOMNESS_UNJUDGED (-2)

/* 0 if buf[0..n) passes every test; else -1 and why names the first that
 * failed with its figure, or VK_RANDOMNESS_UNJUDGED and why says why not.
 * n is a multiple of 16 of at least 64 KiB. */
int vk_randomness_judge(const unsigned char *buf, size_t n, char *why, size_t len);

#endif /* VK_VERIFY_RANDOMNESS_H */
