/* SPDX-License-Identifier: MIT */
/* What a bench file and a side may hold: read.c's and side.c's bounds. */
#ifndef VK_BENCHFILE_LIMITS_H
#define VK_BENCHFILE_LIMITS_H

#define MAX_FILE (64UL << 20)	/* a bench file is far smaller */
/*
 * Far above what bench writes (64 processes and 512 samples a row, some
 * 150 rows) and what vm merges (3 boots of 10 processes by default),
 * these keep a hostile file from making compare take minutes and
 * gigabytes: each row costs 10,000 bootstrap resamples of its process
 * medians and a Hodges-Lehmann shift over every pair of them, so a side
 * at the bounds takes some 20 s on a loaded 2-CPU machine, in 30 MB.
 */
#define MAX_ROWS 4096			/* results in a file */
#define MAX_ROW_GROUPS 1024		/* processes a row, in a file and in a side */
#define MAX_ROW_SAMPLES 65536		/* samples a process, and a row's samples_ns */
#define MAX_SIDE_SAMPLES (1UL << 22)	/* in all the sample arrays of a side's files */
#define MAX_SIDE_GROUPS (1UL << 15)	/* processes in all the rows of a side */
#define MAX_NS 1e9			/* a second a call: no vDSO call is that slow */
#define MIN_NS 1e-3			/* nor that fast; a ratio to less has 300 digits */
#define MAX_RATE 1e15			/* calls a second: 256 threads at MIN_NS each */

#endif /* VK_BENCHFILE_LIMITS_H */
