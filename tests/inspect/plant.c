// SPDX-License-Identifier: MIT
/*
 * A vDSO-like image for inspect's checks (tests/inspect/build.sh). Built
 * as it is, it passes every check; each PLANT_* macro plants one defect
 * whose check must catch it.
 */
struct ts {
	long sec, nsec;
};

/* The data page's stand-in: what the code reads is never known. */
extern volatile unsigned long vk_page[64] __attribute__((visibility("hidden")));
volatile unsigned long vk_page[64] __attribute__((visibility("hidden")));

#ifdef PLANT_SWITCH
/* A switch on the clock id with bodies too unlike for a lookup table:
 * gcc makes a jump table, reached by an indirect jump (a retpoline under
 * -mindirect-branch=thunk-inline). */
static long per_clock(int clk)
{
	switch (clk) {
	case 0: return vk_page[3] * 7;
	case 1: return vk_page[5] ^ vk_page[9];
	case 2: return vk_page[11] + 13;
	case 3: return vk_page[17] << 3;
	case 4: return vk_page[19] - vk_page[2];
	case 5: return vk_page[23] / 3;
	case 6: return vk_page[29] | 0x55;
	case 7: return vk_page[31] & vk_page[7];
	default: return -1;
	}
}
#elif defined(PLANT_FPTRS)
/* A table of function pointers: relocated at load, called indirectly. */
static long read_a(void) { return vk_page[1]; }
static long read_b(void) { return vk_page[2] * 3; }
static long read_c(void) { return vk_page[3] ^ 5; }
static long (*const readers[3])(void) = { read_a, read_b, read_c };

static long per_clock(int clk)
{
	return (unsigned)clk < 3 ? readers[clk]() : -1;
}
#elif defined(PLANT_FRAME)
/* A large frame: -fstack-check probes below it. */
static __attribute__((noinline)) long per_clock(int clk)
{
	volatile char buf[8192];

	buf[clk & 4095] = (char)vk_page[0];
	return buf[(clk + 1) & 4095];
}
#elif defined(PLANT_UNDEF)
/* A call out to a function the image does not define. */
extern long vk_helper(int clk);

static long per_clock(int clk)
{
	return vk_helper(clk);
}
#else
static long per_clock(int clk)
{
	return clk < 16 ? (long)vk_page[clk] : -1;
}
#endif

int __vdso_clock_gettime(int clk, struct ts *t)
{
	long v = per_clock(clk);

	if (v < 0)
		return -22;
	t->sec = v / 1000000000;
	t->nsec = v % 1000000000;
	return 0;
}

int __vdso_getcpu(unsigned *cpu, unsigned *node, void *unused)
{
	(void)unused;
	if (cpu)
		*cpu = (unsigned)vk_page[60];
	if (node)
		*node = 0;
	return 0;
}
