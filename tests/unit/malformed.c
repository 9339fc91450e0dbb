// SPDX-License-Identifier: MIT
/*
 * The reader on hostile images: each seed image given on the command line
 * is truncated, has its header and table bytes overwritten, its fields set
 * to huge and near-overflow values, its hash chains and version chain
 * looped, and is mutated at random, and every result goes through every
 * accessor of core/image/elf.h (tests/unit/exercise.h).
 *
 * Each input is copied so that it ends exactly where a PROT_NONE page
 * begins, and again so that it starts right after one (under ASan, into
 * malloc()ed memory instead): a read past either end faults even without
 * a sanitizer. Each family runs in a child process, each input under an
 * alarm of SECONDS (-t, 3): a crash or a hang is a failed check naming
 * the input, which is saved in DIR (-o), and a new child goes on from the
 * next input, so the count of bad inputs is known.
 *
 * The first seed gets every input of every family, and RANDOM (-n, 20000)
 * random ones; each later seed gets an even sample of BUDGET (-k, 300)
 * inputs of each large family, so that many seeds still run in seconds.
 *
 * Usage: malformed [-o DIR] [-n RANDOM] [-k BUDGET] [-t SECONDS] [-v] SEED...
 *        malformed -r FILE...   (replay: run each FILE as it is)
 * -v prints a line for every input tried.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/base/array.h"
#include "tests/unit/exercise.h"
#include "tests/unit/test.h"

#if defined(__SANITIZE_ADDRESS__)
#define HAVE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAVE_ASAN 1
#endif
#endif

/* The ELF constants used here, without <elf.h>. */
#define ELFMAG "\177ELF"
#define SELFMAG 4
enum {
	EI_MAG1 = 1, EI_CLASS = 4, EI_DATA = 5, EI_VERSION = 6, EI_NIDENT = 16,
	ELFCLASSNONE = 0, ELFCLASS32 = 1, ELFCLASS64 = 2,
	ELFDATANONE = 0, ELFDATA2LSB = 1, ELFDATA2MSB = 2,
	ET_EXEC = 2, ET_DYN = 3, EV_CURRENT = 1, EM_X86_64 = 62,
	PT_NOTE = 4, SHT_PROGBITS = 1,
	SHT_GNU_verdef = 0x6ffffffd, SHT_GNU_versym = 0x6fffffff,
	DT_NULL = 0, DT_HASH = 4, DT_DEBUG = 21,
	DT_GNU_HASH = 0x6ffffef5, DT_VERDEFNUM = 0x6ffffffd,
};

#define MAX_SEED (16u << 20)
#define MAX_FIELDS 8192
#define MAX_CRASHES 100		/* per family: then it stops */
#define MAX_REPORTS 3		/* crashes whose stderr is let through */

/* An image being mutated: its bytes and how to read its fields. */
struct img {
	unsigned char *p;
	size_t len;
	int is64;
	int be;		/* most significant byte first */
};

/* A field of a header or table: where it is and what it is called. */
struct field {
	size_t off;
	unsigned char width;	/* 1, 2, 4 or 8 bytes */
	char name[40];
};

/* A seed image with one set of its dynamic tags disabled. */
struct variant {
	const char *name;
	unsigned char *p;
	size_t len;
	struct field *fields;
	size_t nfields;
	size_t regions[16][2];	/* [offset, length] of the byte family's tables */
	size_t nregions;
};

/* What a family's child reports to the parent, in shared memory. */
struct shared {
	size_t seen;		/* inputs made, tried or not */
	size_t total;		/* inputs the family makes */
	size_t cur;		/* the index of the input being tried */
	size_t resume;		/* after a crash: skip the inputs before this */
	int go;			/* try the input just described */
	size_t tried, opened, failed, broken;
	char first_broken[600];
	char desc[200];		/* the input being tried */
	size_t len;		/* its length; its bytes end at the guard page */
};

static struct shared *sh;
static unsigned char *end_area, *start_area;	/* guarded, MAP_SHARED */
static size_t area_cap;
static const char *save_dir;
static unsigned alarm_secs = 3;	/* an input that takes longer hangs */
static size_t nrandom = 20000;
static size_t budget = 300;	/* inputs per family for the seeds after the first */
static size_t every = 1;	/* try every Nth input made */
static int counting;		/* only count the inputs made */
static int verbose;		/* -v: a line for every input tried */
static int reports_shown;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("not ok - ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	exit(1);
}

/* Fields are read and written in the image's byte order. */
static uint64_t get(const struct img *m, size_t off, unsigned w)
{
	uint64_t v = 0;

	if (off > m->len || w > m->len - off)
		return 0;
	for (unsigned i = 0; i < w; i++)
		v |= (uint64_t)m->p[off + (m->be ? w - 1 - i : i)] << (8 * i);
	return v;
}

static void put(struct img *m, size_t off, unsigned w, uint64_t v)
{
	if (off > m->len || w > m->len - off)
		return;
	for (unsigned i = 0; i < w; i++)
		m->p[off + (m->be ? w - 1 - i : i)] = v >> (8 * i);
}

/* Set up m for p; -1 if p is not even an ELF identification. */
static int img_init(struct img *m, unsigned char *p, size_t len)
{
	m->p = p;
	m->len = len;
	m->is64 = len > EI_CLASS && p[EI_CLASS] == ELFCLASS64;
	m->be = len > EI_DATA && p[EI_DATA] == ELFDATA2MSB;
	return len < EI_NIDENT || memcmp(p, ELFMAG, SELFMAG) ? -1 : 0;
}

/* ---- the field catalogue ---- */

struct catalogue {
	struct img m;
	struct field *f;
	size_t n;
};

static void add(struct catalogue *c, size_t off, unsigned w, const char *fmt, ...)
{
	va_list ap;

	if (c->n == MAX_FIELDS || off > c->m.len || w > c->m.len - off)
		return;
	for (size_t i = 0; i < c->n; i++) {
		if (c->f[i].off == off && c->f[i].width == w)
			return;
	}
	c->f[c->n].off = off;
	c->f[c->n].width = w;
	va_start(ap, fmt);
	vsnprintf(c->f[c->n].name, sizeof(c->f[c->n].name), fmt, ap);
	va_end(ap);
	c->n++;
}

/* An address-sized field's width. */
static unsigned ws(const struct catalogue *c)
{
	return c->m.is64 ? 8 : 4;
}

static void add_ehdr(struct catalogue *c)
{
	unsigned w = ws(c);
	size_t f = 24 + 3 * w;

	add(c, 16, 2, "e_type");
	add(c, 18, 2, "e_machine");
	add(c, 20, 4, "e_version");
	add(c, 24, w, "e_entry");
	add(c, 24 + w, w, "e_phoff");
	add(c, 24 + 2 * w, w, "e_shoff");
	add(c, f, 4, "e_flags");
	add(c, f + 4, 2, "e_ehsize");
	add(c, f + 6, 2, "e_phentsize");
	add(c, f + 8, 2, "e_phnum");
	add(c, f + 10, 2, "e_shentsize");
	add(c, f + 12, 2, "e_shnum");
	add(c, f + 14, 2, "e_shstrndx");
}

static void ehdr_tables(const struct img *m, uint64_t *phoff, size_t *phnum,
			uint64_t *shoff, size_t *shnum)
{
	unsigned w = m->is64 ? 8 : 4;
	size_t f = 24 + 3 * w;

	*phoff = get(m, 24 + w, w);
	*shoff = get(m, 24 + 2 * w, w);
	*phnum = get(m, f + 6, 2) == (m->is64 ? 56u : 32u) ? get(m, f + 8, 2) : 0;
	*shnum = get(m, f + 10, 2) == (m->is64 ? 64u : 40u) ? get(m, f + 12, 2) : 0;
}

static void add_phdrs(struct catalogue *c, uint64_t phoff, size_t phnum)
{
	for (size_t i = 0; i < phnum && i < 64 && phoff <= c->m.len; i++) {
		size_t o = phoff + i * (c->m.is64 ? 56 : 32);

		add(c, o, 4, "phdr[%zu].p_type", i);
		if (c->m.is64) {
			add(c, o + 8, 8, "phdr[%zu].p_offset", i);
			add(c, o + 16, 8, "phdr[%zu].p_vaddr", i);
			add(c, o + 32, 8, "phdr[%zu].p_filesz", i);
			add(c, o + 40, 8, "phdr[%zu].p_memsz", i);
		} else {
			add(c, o + 4, 4, "phdr[%zu].p_offset", i);
			add(c, o + 8, 4, "phdr[%zu].p_vaddr", i);
			add(c, o + 16, 4, "phdr[%zu].p_filesz", i);
			add(c, o + 20, 4, "phdr[%zu].p_memsz", i);
		}
	}
}

static void add_shdrs(struct catalogue *c, uint64_t shoff, size_t shnum)
{
	unsigned w = ws(c);

	for (size_t i = 0; i < shnum && i < 64 && shoff <= c->m.len; i++) {
		size_t o = shoff + i * (c->m.is64 ? 64 : 40);

		add(c, o + 4, 4, "shdr[%zu].sh_type", i);
		add(c, o + 8 + 2 * w, w, "shdr[%zu].sh_offset", i);
		add(c, o + 8 + 3 * w, w, "shdr[%zu].sh_size", i);
		add(c, o + 8 + 4 * w, 4, "shdr[%zu].sh_link", i);
		add(c, o + 12 + 4 * w, 4, "shdr[%zu].sh_info", i);
		add(c, o + 16 + 5 * w, w, "shdr[%zu].sh_entsize", i);
	}
}

/* The dynamic section's entries, up to and including DT_NULL. */
static void add_dynamic(struct catalogue *c, const struct vk_elf *e)
{
	unsigned w = ws(c);

	for (size_t i = 0; i < e->dynamic.size / (2 * w) && i < 64; i++) {
		size_t o = e->dynamic.off + i * 2 * w;

		add(c, o, w, "dyn[%zu].d_tag", i);
		add(c, o + w, w, "dyn[%zu].d_val", i);
		if (get(&c->m, o, w) == DT_NULL)
			break;
	}
}

static void add_syms(struct catalogue *c, const struct vk_elf *e)
{
	for (size_t i = 0; i < e->nsyms && i < 64; i++) {
		size_t o = e->symtab.off + i * e->syment;

		add(c, o, 4, "sym[%zu].st_name", i);
		if (c->m.is64) {
			add(c, o + 4, 1, "sym[%zu].st_info", i);
			add(c, o + 6, 2, "sym[%zu].st_shndx", i);
			add(c, o + 8, 8, "sym[%zu].st_value", i);
		} else {
			add(c, o + 4, 4, "sym[%zu].st_value", i);
			add(c, o + 12, 1, "sym[%zu].st_info", i);
			add(c, o + 14, 2, "sym[%zu].st_shndx", i);
		}
		if (e->versym.size)
			add(c, e->versym.off + 2 * i, 2, "versym[%zu]", i);
	}
}

static void add_hashes(struct catalogue *c, const struct vk_elf *e)
{
	size_t es = e->hash_entsize ? e->hash_entsize : 4;

	if (e->hash.size) {
		add(c, e->hash.off, es, "hash.nbucket");
		add(c, e->hash.off + es, es, "hash.nchain");
	}
	for (size_t i = 2; i < e->hash.size / es && i < 128; i++)
		add(c, e->hash.off + i * es, es, "hash[%zu]", i);
	for (size_t i = 0; i < e->gnu_hash.size / 4 && i < 128; i++)
		add(c, e->gnu_hash.off + 4 * i, 4, "gnu_hash word %zu", i);
}

/* The verdef chain, walked with bounds checks of its own; its length. */
static size_t add_verdefs(struct catalogue *c, const struct vk_elf *e)
{
	size_t off = e->verdef.off, end = off;

	for (size_t i = 0; e->verdef.size && i < e->verdefnum && i < 32; i++) {
		uint64_t aux = get(&c->m, off + 12, 4), next = get(&c->m, off + 16, 4);

		add(c, off, 2, "verdef[%zu].vd_version", i);
		add(c, off + 2, 2, "verdef[%zu].vd_flags", i);
		add(c, off + 4, 2, "verdef[%zu].vd_ndx", i);
		add(c, off + 6, 2, "verdef[%zu].vd_cnt", i);
		add(c, off + 12, 4, "verdef[%zu].vd_aux", i);
		add(c, off + 16, 4, "verdef[%zu].vd_next", i);
		add(c, off + aux, 4, "verdef[%zu].vda_name", i);
		add(c, off + aux + 4, 4, "verdef[%zu].vda_next", i);
		end = off + 20 > off + aux + 8 ? off + 20 : off + aux + 8;
		if (!next || off + next > c->m.len)
			break;
		off += next;
	}
	return end > e->verdef.off ? end - e->verdef.off : 0;
}

static void add_notes(struct catalogue *c, uint64_t phoff, size_t phnum)
{
	size_t psz = c->m.is64 ? 56 : 32, w = ws(c);

	for (size_t i = 0; i < phnum && i < 64; i++) {
		size_t o = phoff + i * psz;
		uint64_t off, size;

		if (get(&c->m, o, 4) != PT_NOTE)
			continue;
		off = get(&c->m, o + (c->m.is64 ? 8 : 4), w);
		size = get(&c->m, o + (c->m.is64 ? 32 : 16), w);
		for (size_t k = 0; k < 4 && size >= 12 && off + 12 <= c->m.len; k++) {
			uint64_t step = 12 + ((get(&c->m, off, 4) + 3) & ~3ull) +
					((get(&c->m, off + 4, 4) + 3) & ~3ull);

			add(c, off, 4, "note[%zu].n_namesz", k);
			add(c, off + 4, 4, "note[%zu].n_descsz", k);
			add(c, off + 8, 4, "note[%zu].n_type", k);
			if (step > size)
				break;
			off += step;
			size -= step;
		}
	}
}

static void add_region(struct variant *v, size_t off, size_t len)
{
	if (v->nregions < ARRAY_SIZE(v->regions) && off < v->len) {
		v->regions[v->nregions][0] = off;
		v->regions[v->nregions++][1] = len < v->len - off ? len : v->len - off;
	}
}

/* Find the variant's fields and tables through its headers and the reader. */
static void catalogue(struct variant *v)
{
	struct catalogue c = { .f = calloc(MAX_FIELDS, sizeof(struct field)) };
	uint64_t phoff, shoff;
	size_t phnum, shnum;
	struct vk_elf e;

	if (!c.f)
		die("out of memory");
	v->fields = c.f;
	if (img_init(&c.m, v->p, v->len))
		return;
	ehdr_tables(&c.m, &phoff, &phnum, &shoff, &shnum);
	add_ehdr(&c);
	add_phdrs(&c, phoff, phnum);
	add_notes(&c, phoff, phnum);
	add_shdrs(&c, shoff, shnum);
	add_region(v, 0, c.m.is64 ? 64 : 52);
	add_region(v, phoff, phnum * (c.m.is64 ? 56 : 32));
	add_region(v, shoff, shnum * (c.m.is64 ? 64 : 40));
	if (vk_elf_open(&e, v->p, v->len) == 0) {
		add_dynamic(&c, &e);
		add_syms(&c, &e);
		add_hashes(&c, &e);
		add_region(v, e.verdef.off, add_verdefs(&c, &e));
		add_region(v, e.dynamic.off, e.dynamic.size);
		add_region(v, e.hash.off, e.hash.size);
		add_region(v, e.gnu_hash.off, e.gnu_hash.size);
		add_region(v, e.versym.off, e.versym.size);
		add_region(v, e.symtab.off, e.symtab.size);
	}
	v->nfields = c.n;
}

/* ---- running inputs ---- */

struct ctx {
	const char *seed;
	const struct variant *vars;
	size_t nvars;
	unsigned char *scratch;
	int sample;		/* try only a sample of each family */
};

static void record(int rc, const struct vk_elf *e, const char *broken)
{
	sh->opened += rc == 0;
	sh->failed += rc != 0;
	if (broken && !sh->broken++)
		snprintf(sh->first_broken, sizeof(sh->first_broken), "%s: %s%s%s", sh->desc,
			 broken, rc ? "; err: " : "", rc ? e->err : "");
}

/* Whether the next input described will be tried. */
static int wanted(void)
{
	return !counting && sh->seen % every == 0 && sh->seen >= sh->resume;
}

/*
 * Every input is described, then run: the description also counts it and
 * decides whether this one is tried, so that skipped ones cost little.
 */
static void describe(const char *fmt, ...)
{
	size_t idx = sh->seen;
	va_list ap;

	sh->go = wanted();
	sh->seen++;
	if (!sh->go)
		return;
	sh->cur = idx;
	va_start(ap, fmt);
	vsnprintf(sh->desc, sizeof(sh->desc), fmt, ap);
	va_end(ap);
}

/*
 * Run one input placed against each guard page. Under ASan, a copy in
 * malloc()ed memory, whose redzones catch a read before the start as well,
 * stands for the one placed after a guard page.
 */
static void run(const unsigned char *in, size_t len)
{
	unsigned char *at_end = end_area + area_cap - len;
	const char *broken;
	struct vk_elf e;
	int rc;

	if (!sh->go)
		return;
	alarm(alarm_secs);
	sh->len = len;
	sh->tried++;
	memmove(at_end, in, len);
	rc = exercise_elf(at_end, len, &e, &broken);
	record(rc, &e, broken);
	if (verbose)
		printf("# input %zu: %s: %s\n", sh->cur, sh->desc, rc ? e.err : "opened");
#ifdef HAVE_ASAN
	{
		unsigned char *copy = malloc(len ? len : 1);

		if (!copy)
			die("out of memory");
		memcpy(copy, at_end, len);
		exercise_elf(copy, len, &e, &broken);
		free(copy);
	}
#else
	memcpy(start_area, at_end, len);
	exercise_elf(start_area, len, &e, &broken);
#endif
	alarm(0);
}

static void fam_truncate(const struct ctx *c)
{
	for (size_t v = 0; v < c->nvars; v++) {
		for (size_t n = 0; n <= c->vars[v].len; n++) {
			describe("%s (%s) truncated to %zu bytes", c->seed, c->vars[v].name, n);
			run(c->vars[v].p, n);
		}
	}
}

static void fam_bytes(const struct ctx *c)
{
	static const unsigned char vals[] = { 0x00, 0xff, 0x7f, 0x80 };

	for (size_t v = 0; v < c->nvars; v++) {
		const struct variant *var = &c->vars[v];
		unsigned char *done = calloc(var->len, 1);

		if (!done)
			die("out of memory");
		memcpy(c->scratch, var->p, var->len);
		for (size_t r = 0; r < var->nregions; r++) {
			for (size_t o = var->regions[r][0];
			     o < var->regions[r][0] + var->regions[r][1]; o++) {
				unsigned char orig = var->p[o];

				if (done[o]++)
					continue;
				for (size_t k = 0; k <= sizeof(vals); k++) {
					unsigned char b = k < sizeof(vals) ? vals[k] : orig ^ 1;

					if (b == orig)
						continue;
					c->scratch[o] = b;
					describe("%s (%s) byte %#zx set to %#x (was %#x)", c->seed,
						 var->name, o, b, orig);
					run(c->scratch, var->len);
				}
				c->scratch[o] = orig;
			}
		}
		free(done);
	}
}

/* Values for a field of w bytes: small, huge, near-overflow, near the size. */
static size_t field_values(uint64_t orig, unsigned w, size_t size, uint64_t *out)
{
	const uint64_t fixed[] = {
		0, 1, 2, 3, 4, 7, 8, 16, 20, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff,
		0x10000, 0x7fffffff, 0x80000000, 0xfffffff0, 0xfffffff8, 0xfffffffc,
		0xffffffff, 0x100000000, 0x7fffffffffffffff, 0x8000000000000000,
		UINT64_MAX - 15, UINT64_MAX - 8, UINT64_MAX - 7, UINT64_MAX - 1, UINT64_MAX,
		size - 1, size, size + 1, size / 2, orig + 1, orig - 1, orig + 4,
		orig - 4, orig * 2, orig ^ 0x80000000,
	};
	uint64_t mask = w == 8 ? UINT64_MAX : (1ull << (8 * w)) - 1;
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++) {
		uint64_t x = fixed[i] & mask;
		size_t j;

		for (j = 0; j < n && out[j] != x; j++)
			;
		if (j == n && x != (orig & mask))
			out[n++] = x;
	}
	return n;
}

static void fam_fields(const struct ctx *c)
{
	uint64_t vals[64];

	for (size_t v = 0; v < c->nvars; v++) {
		const struct variant *var = &c->vars[v];
		struct img m;

		memcpy(c->scratch, var->p, var->len);
		img_init(&m, c->scratch, var->len);
		for (size_t f = 0; f < var->nfields; f++) {
			const struct field *fl = &var->fields[f];
			uint64_t orig = get(&m, fl->off, fl->width);
			size_t n = field_values(orig, fl->width, var->len, vals);

			for (size_t i = 0; i < n; i++) {
				put(&m, fl->off, fl->width, vals[i]);
				describe("%s (%s) %s set to %#llx (was %#llx)", c->seed, var->name,
					 fl->name, (unsigned long long)vals[i],
					 (unsigned long long)orig);
				run(c->scratch, var->len);
			}
			put(&m, fl->off, fl->width, orig);
		}
	}
}

/* ---- loops and structural corruptions, several fields at once ---- */

static const struct field *find_field(const struct variant *v, const char *name)
{
	for (size_t i = 0; i < v->nfields; i++) {
		if (strcmp(v->fields[i].name, name) == 0)
			return &v->fields[i];
	}
	return NULL;
}

/* Set a named field of the scratch copy; false if the variant lacks it. */
static int setf(const struct ctx *c, const struct variant *v, const char *name,
		uint64_t val)
{
	const struct field *f = find_field(v, name);
	struct img m;

	if (!f)
		return 0;
	img_init(&m, c->scratch, v->len);
	put(&m, f->off, f->width, val);
	return 1;
}

static uint64_t getf(const struct ctx *c, const struct variant *v, const char *name)
{
	const struct field *f = find_field(v, name);
	struct img m;

	if (!f)
		return 0;
	img_init(&m, c->scratch, v->len);
	return get(&m, f->off, f->width);
}

static void reset(const struct ctx *c, const struct variant *v)
{
	memcpy(c->scratch, v->p, v->len);
}

/* The section header of the first section of a type, as a field prefix. */
static int find_section(const struct ctx *c, const struct variant *v, uint32_t type,
			char *prefix, size_t len)
{
	char name[40];

	for (size_t i = 0; i < 64; i++) {
		snprintf(name, sizeof(name), "shdr[%zu].sh_type", i);
		if (!find_field(v, name))
			return 0;
		if (getf(c, v, name) == type) {
			snprintf(prefix, len, "shdr[%zu]", i);
			return 1;
		}
	}
	return 0;
}

/* Set DT_HASH word i (2 + nbucket + k is chain[k]). */
static void set_hash_word(const struct ctx *c, const struct variant *v, uint64_t i,
			  uint64_t val)
{
	char name[40];

	snprintf(name, sizeof(name), "hash[%llu]", (unsigned long long)i);
	setf(c, v, name, val);
}

static void sysv_loops(const struct ctx *c, const struct variant *v)
{
	uint64_t nbucket, nchain;

	reset(c, v);
	nbucket = getf(c, v, "hash.nbucket");
	nchain = getf(c, v, "hash.nchain");
	if (!nbucket || nbucket + nchain > 128)
		return;
	/* Every chain entry points to itself, then to its neighbour and back. */
	for (uint64_t i = 0; i < nchain; i++)
		set_hash_word(c, v, 2 + nbucket + i, i);
	describe("%s (%s) every DT_HASH chain entry points to itself", c->seed, v->name);
	run(c->scratch, v->len);
	for (uint64_t i = 0; i < nchain; i++)
		set_hash_word(c, v, 2 + nbucket + i, i ^ 1);
	describe("%s (%s) DT_HASH chains loop between pairs", c->seed, v->name);
	run(c->scratch, v->len);
	for (uint64_t i = 0; i < nbucket; i++)
		set_hash_word(c, v, 2 + i, nchain ? nchain - 1 : 0);
	for (uint64_t i = 0; i < nchain; i++)
		set_hash_word(c, v, 2 + nbucket + i, i + 1 < nchain ? i + 1 : 1);
	describe("%s (%s) one DT_HASH chain through every symbol, in a ring", c->seed, v->name);
	run(c->scratch, v->len);
}

static void gnu_loops(const struct ctx *c, const struct variant *v)
{
	const char *word = "gnu_hash word %zu";
	uint64_t nbuckets, bloom, w = v->len > EI_CLASS && v->p[EI_CLASS] == ELFCLASS64 ? 2 : 1;
	size_t chain0, nwords = 0;
	char name[40];

	reset(c, v);
	nbuckets = getf(c, v, "gnu_hash word 0");
	bloom = getf(c, v, "gnu_hash word 2");
	if (!nbuckets || nbuckets > 64 || bloom > 64)
		return;
	chain0 = 4 + bloom * w + nbuckets;
	while (snprintf(name, sizeof(name), word, chain0 + nwords), find_field(v, name))
		nwords++;
	for (size_t i = 0; i < nwords; i++) {
		snprintf(name, sizeof(name), word, chain0 + i);
		setf(c, v, name, getf(c, v, name) & ~1u);
	}
	describe("%s (%s) DT_GNU_HASH chains with no end bit", c->seed, v->name);
	run(c->scratch, v->len);
	for (size_t i = 0; i < nbuckets; i++) {
		snprintf(name, sizeof(name), word, 4 + bloom * w + i);
		setf(c, v, name, getf(c, v, "gnu_hash word 1"));
	}
	describe("%s (%s) DT_GNU_HASH: every bucket at symoffset, no end bit", c->seed, v->name);
	run(c->scratch, v->len);
	for (size_t i = 0; i < w * bloom; i++) {
		snprintf(name, sizeof(name), word, 4 + i);
		setf(c, v, name, UINT32_MAX);
	}
	describe("%s (%s) DT_GNU_HASH: full bloom filter, no end bit", c->seed, v->name);
	run(c->scratch, v->len);
	reset(c, v);
	for (uint64_t b = 0x80000000; b; b >>= 4) {
		setf(c, v, "gnu_hash word 2", b);
		describe("%s (%s) DT_GNU_HASH bloom_size %#llx", c->seed, v->name,
			 (unsigned long long)b);
		run(c->scratch, v->len);
	}
}

/* DT_VERDEFNUM kept (0), removed (1) or made huge (2). */
static void set_verdefnum(const struct ctx *c, const struct variant *v, int how)
{
	char tag[40], val[40];

	for (size_t k = 0; how && k < 64; k++) {
		snprintf(tag, sizeof(tag), "dyn[%zu].d_tag", k);
		snprintf(val, sizeof(val), "dyn[%zu].d_val", k);
		if (!find_field(v, tag))
			return;
		if (getf(c, v, tag) != DT_VERDEFNUM)
			continue;
		if (how == 1)
			setf(c, v, tag, DT_DEBUG);
		else
			setf(c, v, val, UINT32_MAX);
	}
}

/*
 * vd_next can only go forward on a 64-bit host; -20 points back to the
 * previous entry on a 32-bit one, where the offset wraps: a loop.
 */
static void verdef_loops(const struct ctx *c, const struct variant *v)
{
	static const uint64_t nexts[] = { 0, 1, 4, 20, 0xffffffec, 0xfffffff0, 0xffffffff };
	static const char *const how[] = { "kept", "removed", "huge" };

	for (size_t i = 0; i < ARRAY_SIZE(nexts); i++) {
		for (int num = 0; num < 3; num++) {
			reset(c, v);
			if (!setf(c, v, "verdef[1].vd_next", nexts[i]) &&
			    !setf(c, v, "verdef[0].vd_next", nexts[i]))
				return;
			set_verdefnum(c, v, num);
			describe("%s (%s) vd_next %#llx, DT_VERDEFNUM %s", c->seed, v->name,
				 (unsigned long long)nexts[i], how[num]);
			run(c->scratch, v->len);
		}
	}
}

/*
 * Index 1 (VER_NDX_GLOBAL) is the unversioned one, defined by the base
 * entry: here it loses VER_FLG_BASE, and a symbol is put at index 1.
 */
static void global_index(const struct ctx *c, const struct variant *v)
{
	static const uint64_t ndx[] = { 1, 0x8001 };

	for (size_t i = 0; i < ARRAY_SIZE(ndx); i++) {
		reset(c, v);
		if (getf(c, v, "verdef[0].vd_ndx") != 1 ||
		    !setf(c, v, "verdef[0].vd_flags", 0) || !setf(c, v, "versym[1]", ndx[i]))
			return;
		describe("%s (%s) verdef 0 (index 1) without VER_FLG_BASE, versym[1] %#llx",
			 c->seed, v->name, (unsigned long long)ndx[i]);
		run(c->scratch, v->len);
	}
}

/* The sections path's verdef: empty, at either end, with any count. */
static void section_verdef(const struct ctx *c, const struct variant *v)
{
	static const uint64_t infos[] = { 0, 1, 2, 1000, UINT32_MAX };
	char pre[24], vpre[24], f[48];

	reset(c, v);
	if (!find_section(c, v, SHT_GNU_verdef, pre, sizeof(pre)))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(infos); i++) {
		for (int where = 0; where < 3; where++) {
			uint64_t off = where == 0 ? v->len : where == 1 ? v->len - 8 : 0;

			for (int keep_versym = 0; keep_versym < 2; keep_versym++) {
				reset(c, v);
				if (!keep_versym &&
				    find_section(c, v, SHT_GNU_versym, vpre, sizeof(vpre))) {
					snprintf(f, sizeof(f), "%s.sh_type", vpre);
					setf(c, v, f, SHT_PROGBITS);
				}
				snprintf(f, sizeof(f), "%s.sh_offset", pre);
				setf(c, v, f, off);
				snprintf(f, sizeof(f), "%s.sh_size", pre);
				setf(c, v, f, 0);
				snprintf(f, sizeof(f), "%s.sh_info", pre);
				setf(c, v, f, infos[i]);
				describe("%s (%s) empty .gnu.version_d at offset %#llx, sh_info %#llx, %s .gnu.version",
					 c->seed, v->name, (unsigned long long)off,
					 (unsigned long long)infos[i], keep_versym ? "with" : "without");
				run(c->scratch, v->len);
			}
		}
	}
}

/* Offsets that wrap around: a segment at offset -N maps vaddr N to 0. */
static void wrapping(const struct ctx *c, const struct variant *v)
{
	char off[40], filesz[40];

	for (size_t i = 0; i < 16; i++) {
		snprintf(off, sizeof(off), "phdr[%zu].p_offset", i);
		snprintf(filesz, sizeof(filesz), "phdr[%zu].p_filesz", i);
		if (!find_field(v, off))
			break;
		for (uint64_t k = 1; k <= 0x10000; k <<= 4) {
			reset(c, v);
			setf(c, v, off, -k);
			describe("%s (%s) %s set to -%#llx", c->seed, v->name, off,
				 (unsigned long long)k);
			run(c->scratch, v->len);
			setf(c, v, filesz, UINT64_MAX);
			describe("%s (%s) %s set to -%#llx, p_filesz to -1", c->seed, v->name,
				 off, (unsigned long long)k);
			run(c->scratch, v->len);
		}
	}
}

static void fam_loops(const struct ctx *c)
{
	for (size_t v = 0; v < c->nvars; v++) {
		sysv_loops(c, &c->vars[v]);
		gnu_loops(c, &c->vars[v]);
		verdef_loops(c, &c->vars[v]);
		global_index(c, &c->vars[v]);
		section_verdef(c, &c->vars[v]);
		wrapping(c, &c->vars[v]);
	}
}

/* ---- random mutations ---- */

static uint64_t rng_state;

/* splitmix64 of x: unrelated states for neighbouring x. */
static void rnd_seed(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	rng_state = (x ^ (x >> 31)) | 1;
}

/* xorshift64*: fixed seeds, so every run tries the same inputs. */
static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static void mutate(const struct variant *v, struct img *m, char *what, size_t len)
{
	uint64_t vals[64];
	size_t o, n;

	switch (rnd() % 6) {
	case 0:		/* a field, to a hostile value */
	case 1:
		if (v->nfields) {
			const struct field *f = &v->fields[rnd() % v->nfields];

			n = field_values(get(m, f->off, f->width), f->width, m->len, vals);
			put(m, f->off, f->width, vals[rnd() % n]);
			snprintf(what, len, "%s", f->name);
		}
		break;
	case 2:		/* a byte in a table */
		n = v->nregions ? rnd() % v->nregions : 0;
		if (v->nregions && v->regions[n][1]) {
			o = v->regions[n][0] + rnd() % v->regions[n][1];
			if (o < m->len)
				m->p[o] = rnd();
			snprintf(what, len, "byte %#zx", o);
		}
		break;
	case 3:		/* a bit anywhere */
		if (m->len) {
			o = rnd() % m->len;
			m->p[o] ^= 1u << (rnd() % 8);
			snprintf(what, len, "bit at %#zx", o);
		}
		break;
	case 4:		/* a copied block */
		if (m->len > 16) {
			size_t from = rnd() % m->len, to = rnd() % m->len;

			n = rnd() % 64;
			if (n > m->len - from)
				n = m->len - from;
			if (n > m->len - to)
				n = m->len - to;
			memmove(m->p + to, m->p + from, n);
			snprintf(what, len, "%zu bytes %#zx->%#zx", n, from, to);
		}
		break;
	default:	/* a shorter image */
		if (m->len)
			m->len -= rnd() % (m->len / 8 + 1);
		snprintf(what, len, "length %zu", m->len);
		break;
	}
}

static void fam_random(const struct ctx *c)
{
	for (size_t i = 0; i < nrandom; i++) {
		char what[4][48] = { "", "", "", "" };
		const struct variant *v;
		struct img m;
		int count;

		if (!wanted()) {
			sh->seen++;
			continue;
		}
		/* Each input has a seed of its own, so any one can be skipped. */
		rnd_seed(i);
		v = &c->vars[rnd() % c->nvars];
		count = 1 + rnd() % 4;
		memcpy(c->scratch, v->p, v->len);
		img_init(&m, c->scratch, v->len);
		for (int k = 0; k < count; k++)
			mutate(v, &m, what[k], sizeof(what[k]));
		describe("%s (%s) random #%zu: %s %s %s %s", c->seed, v->name, i, what[0],
			 what[1], what[2], what[3]);
		run(c->scratch, m.len);
	}
}

/* ---- families in child processes ---- */

struct family {
	const char *name;
	void (*fn)(const struct ctx *c);
	int whole;		/* few and aimed: never sampled */
};

static const struct family families[] = {
	{ "truncation at every length", fam_truncate, 0 },
	{ "table bytes set to 00/ff/7f/80/^1", fam_bytes, 0 },
	{ "fields set to huge and near-overflow values", fam_fields, 0 },
	{ "looped chains, empty tables, wrapping offsets", fam_loops, 1 },
	{ "random mutations", fam_random, 0 },
};

static void save_input(const char *seed, size_t fam, char *path, size_t len)
{
	const char *base = strrchr(seed, '/') ? strrchr(seed, '/') + 1 : seed;
	FILE *f;

	path[0] = '\0';
	if (!save_dir)
		return;
	mkdir(save_dir, 0755);
	snprintf(path, len, "%s/%s.family%zu.bin", save_dir, base, fam);
	f = fopen(path, "wb");
	if (!f || fwrite(end_area + area_cap - sh->len, 1, sh->len, f) != sh->len)
		snprintf(path, len, "(could not save: %s)", strerror(errno));
	if (f)
		fclose(f);
}

/* In the child: a seed after the first gets a sample of `budget` inputs. */
static void child(const struct ctx *c, const struct family *fy)
{
	int null = open("/dev/null", O_WRONLY);

	/*
	 * Only the first few crashes' reports are worth reading; the others
	 * die at once, without a sanitizer's (slow) symbolized report.
	 */
	if (sh->resume || reports_shown >= MAX_REPORTS) {
		dup2(null, STDERR_FILENO);
		signal(SIGSEGV, SIG_DFL);
		signal(SIGBUS, SIG_DFL);
	}
	every = 1;
	if (c->sample && !fy->whole) {
		counting = 1;
		sh->seen = 0;
		fy->fn(c);
		counting = 0;
		every = (sh->seen + budget - 1) / (budget ? budget : 1);
		every = every ? every : 1;
	}
	sh->seen = 0;
	fy->fn(c);
	sh->total = sh->seen;
	_exit(0);
}

/* What killed a child, in words. */
static void death(int status, char *buf, size_t len, int shown)
{
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		snprintf(buf, len, "hung (no answer in %us)", alarm_secs);
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "%s", strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "exit status %d (a sanitizer's report%s)",
			 WEXITSTATUS(status), shown ? " is above" : ": replay to see it");
}

/*
 * Run a family in a child; after a crash or a hang, note the first one,
 * and start another child at the input after it, so that every input is
 * still tried and the count of those that crash is known.
 */
static void run_family(const struct ctx *c, size_t fam)
{
	const struct family *fy = &families[fam];
	char path[512] = "", first[400] = "", how[80], of[64] = "";
	time_t t0 = time(NULL);
	size_t crashes = 0;
	int status;
	pid_t pid;

	memset(sh, 0, sizeof(*sh));
	for (;;) {
		fflush(stdout);
		pid = fork();
		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (pid == 0)
			child(c, fy);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			break;
		if (!crashes++) {
			death(status, how, sizeof(how), reports_shown++ < MAX_REPORTS);
			snprintf(first, sizeof(first), "%s on input %zu (%zu bytes): %s", how,
				 sh->cur, sh->len, sh->desc);
			save_input(c->seed, fam, path, sizeof(path));
		}
		sh->resume = sh->cur + 1;
		if (crashes == MAX_CRASHES)
			break;
	}
	if (sh->tried < sh->total)
		snprintf(of, sizeof(of), " (a sample of %zu)", sh->total);
	CHECK(!crashes && !sh->broken,
	      "%s: %s: %zu inputs%s, %zu opened, %zu refused with a message, %zu crashed or hung (%lds)",
	      c->seed, fy->name, sh->tried, of, sh->opened, sh->failed, crashes,
	      (long)(time(NULL) - t0));
	if (crashes)
		printf("#   the first: %s\n", first);
	if (crashes == MAX_CRASHES)
		printf("#   stopped after %d crashes\n", MAX_CRASHES);
	if (path[0])
		printf("#   saved as %s; replay it with: malformed -r %s\n", path, path);
	if (sh->broken)
		printf("#   %zu inputs broke a promise of elf.h; the first: %s\n", sh->broken,
		       sh->first_broken);
}

/* ---- seeds, variants and the fixed expectations ---- */

static unsigned char *read_file(const char *path, size_t *len)
{
	unsigned char *p = NULL;
	FILE *f = fopen(path, "rb");
	struct stat st;

	if (!f)
		return NULL;
	if (fstat(fileno(f), &st) == 0 && st.st_size >= 0 && (unsigned long long)st.st_size <= MAX_SEED) {
		p = malloc(st.st_size ? st.st_size : 1);
		if (p && fread(p, 1, st.st_size, f) != (size_t)st.st_size) {
			free(p);
			p = NULL;
		}
		*len = st.st_size;
	}
	fclose(f);
	return p;
}

/* A copy of the seed with the dynamic tags `drop` renamed to DT_DEBUG. */
static int make_variant(struct variant *v, const unsigned char *seed, size_t len,
			const char *name, const int64_t *drop, size_t ndrop)
{
	struct vk_elf e;
	struct img m;
	int changed = 0;

	memset(v, 0, sizeof(*v));
	v->name = name;
	v->len = len;
	v->p = malloc(len ? len : 1);
	if (!v->p)
		die("out of memory");
	memcpy(v->p, seed, len);
	if (ndrop && (img_init(&m, v->p, len) || vk_elf_open(&e, v->p, len)))
		return -1;
	for (size_t i = 0; ndrop && i < e.dynamic.size / (m.is64 ? 16 : 8); i++) {
		size_t o = e.dynamic.off + i * (m.is64 ? 16 : 8);
		uint64_t tag = get(&m, o, m.is64 ? 8 : 4);

		for (size_t k = 0; k < ndrop; k++) {
			if (tag == (uint64_t)drop[k] || (!m.is64 && tag == (uint32_t)drop[k])) {
				put(&m, o, m.is64 ? 8 : 4, DT_DEBUG);
				changed = 1;
			}
		}
	}
	if (ndrop && !changed)
		return -1;
	catalogue(v);
	return 0;
}

static void free_variant(struct variant *v)
{
	free(v->p);
	free(v->fields);
}

static void run_seed(const char *path, int sample)
{
	static const int64_t no_gnu[] = { DT_GNU_HASH }, no_sysv[] = { DT_HASH };
	static const int64_t no_hash[] = { DT_GNU_HASH, DT_HASH };
	struct variant vars[4];
	struct ctx c = { .seed = path, .vars = vars, .sample = sample };
	unsigned char *seed;
	struct vk_elf e;
	size_t len = 0;

	seed = read_file(path, &len);
	if (!seed) {
		CHECK(0, "%s: read the seed (at most %u bytes)", path, MAX_SEED);
		return;
	}
	if (len > area_cap)
		die("%s: %zu bytes is larger than the guarded area", path, len);
	memcpy(end_area + area_cap - len, seed, len);
	if (vk_elf_open(&e, end_area + area_cap - len, len))
		printf("# %s does not open (%s), mutated as it is\n", path, e.err);
	else
		printf("# %s: ELF%d %s %s, %zu symbols through %s, %zu version definitions\n",
		       path, e.is64 ? 64 : 32, e.big_endian ? "MSB" : "LSB",
		       vk_elf_machine_name(e.machine), e.nsyms,
		       vk_elf_symsrc_name(e.symsrc), e.verdefnum);
	make_variant(&vars[c.nvars++], seed, len, "as is", NULL, 0);
	if (make_variant(&vars[c.nvars], seed, len, "no DT_GNU_HASH", no_gnu, 1) == 0)
		c.nvars++;
	else
		free_variant(&vars[c.nvars]);
	if (make_variant(&vars[c.nvars], seed, len, "no DT_HASH", no_sysv, 1) == 0)
		c.nvars++;
	else
		free_variant(&vars[c.nvars]);
	if (make_variant(&vars[c.nvars], seed, len, "sections only", no_hash, 2) == 0)
		c.nvars++;
	else
		free_variant(&vars[c.nvars]);
	c.scratch = malloc(len ? len : 1);
	if (!c.scratch)
		die("out of memory");
	printf("#   variants:");
	for (size_t i = 0; i < c.nvars; i++)
		printf("%s %s (%zu fields, %zu tables)", i ? "," : "", vars[i].name,
		       vars[i].nfields, vars[i].nregions);
	printf("\n");
	for (size_t f = 0; f < ARRAY_SIZE(families); f++)
		run_family(&c, f);
	for (size_t i = 0; i < c.nvars; i++)
		free_variant(&vars[i]);
	free(c.scratch);
	free(seed);
}

/* A bare 64-byte ELF64 header of this host's byte order. */
static struct img bare_header(unsigned char *p)
{
	const uint16_t one = 1;
	struct img m;

	memset(p, 0, 64);
	memcpy(p, ELFMAG, SELFMAG);
	p[EI_CLASS] = ELFCLASS64;
	p[EI_DATA] = *(const unsigned char *)&one ? ELFDATA2LSB : ELFDATA2MSB;
	p[EI_VERSION] = EV_CURRENT;
	img_init(&m, p, 64);
	put(&m, 16, 2, ET_DYN);
	put(&m, 18, 2, EM_X86_64);
	put(&m, 20, 4, EV_CURRENT);
	put(&m, 52, 2, 64);	/* e_ehsize */
	put(&m, 54, 2, 56);	/* e_phentsize */
	put(&m, 58, 2, 64);	/* e_shentsize */
	return m;
}

static void expect(const char *what, const unsigned char *p, size_t len, int want)
{
	unsigned char *at = end_area + area_cap - len;
	const char *broken;
	struct vk_elf e;
	int rc;

	memcpy(at, p, len);
	rc = exercise_elf(at, len, &e, &broken);
	CHECK(rc == -want && e.err[0] && !broken, "%s: %s (\"%s\")", what,
	      vk_elf_strerror(-want), e.err);
	if (rc != -want)
		printf("#   got %d (%s), want %d\n", rc, vk_elf_strerror(rc), -want);
	if (broken)
		printf("#   %s\n", broken);
}

static void fixed_expectations(void)
{
	unsigned char h[64];
	struct img m = bare_header(h);

	expect("an empty buffer", h, 0, VK_ELF_ETRUNC);
	expect("10 bytes of an ELF header", h, 10, VK_ELF_ETRUNC);
	expect("an ELF identification without the rest of the header", h, EI_NIDENT,
	       VK_ELF_ETRUNC);
	expect("a header with no program headers", h, 64, VK_ELF_ESYMS);
	h[EI_MAG1] = 'e';
	expect("a bad magic number", h, 64, VK_ELF_EMAGIC);
	m = bare_header(h);
	h[EI_CLASS] = ELFCLASSNONE;
	expect("ELFCLASSNONE", h, 64, VK_ELF_ECLASS);
	m = bare_header(h);
	h[EI_DATA] = ELFDATANONE;
	expect("ELFDATANONE", h, 64, VK_ELF_ECLASS);
	m = bare_header(h);
	put(&m, 16, 2, ET_EXEC);
	expect("e_type ET_EXEC", h, 64, VK_ELF_ETYPE);
	m = bare_header(h);
	put(&m, 54, 2, 1);	/* e_phentsize */
	put(&m, 56, 2, 1);	/* e_phnum */
	expect("e_phentsize 1", h, 64, VK_ELF_ECLASS);
	m = bare_header(h);
	put(&m, 32, 8, SIZE_MAX - 8);	/* e_phoff */
	put(&m, 56, 2, 1);
	expect("e_phoff SIZE_MAX-8", h, 64, VK_ELF_ETRUNC);
}

/* Run each file as it is, against the guard page, with nothing forked. */
static void replay(int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		size_t len = 0;
		unsigned char *p = read_file(argv[i], &len);
		unsigned char *at = end_area + area_cap - len;
		const char *broken;
		struct vk_elf e;
		int rc;

		if (!p) {
			CHECK(0, "%s: read the file", argv[i]);
			continue;
		}
		memcpy(at, p, len);
		rc = exercise_elf(at, len, &e, &broken);
		CHECK(!broken, "%s: %s: %s", argv[i], rc ? "refused" : "opened",
		      broken ? broken : rc ? e.err : "every accessor answered");
		free(p);
	}
}

/* Map `cap` bytes with a PROT_NONE page after them (at_end) or before. */
static unsigned char *guarded(size_t cap, size_t page, int at_end)
{
	unsigned char *p = mmap(NULL, cap + page, PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	if (mprotect(at_end ? p + cap : p, page, PROT_NONE))
		die("mprotect: %s", strerror(errno));
	return at_end ? p : p + page;
}

int main(int argc, char **argv)
{
	size_t page = sysconf(_SC_PAGESIZE), max = 0;
	int c, replaying = 0;
	struct stat st;

	while ((c = getopt(argc, argv, "o:n:k:t:rv")) != -1) {
		switch (c) {
		case 'o': save_dir = optarg; break;
		case 'n': nrandom = strtoul(optarg, NULL, 0); break;
		case 'k': budget = strtoul(optarg, NULL, 0); break;
		case 't': alarm_secs = strtoul(optarg, NULL, 0); break;
		case 'r': replaying = 1; break;
		case 'v': verbose = 1; break;
		default:
			fprintf(stderr, "usage: %s [-o DIR] [-n RANDOM] [-k BUDGET] [-t SECONDS] [-r] [-v] SEED...\n",
				argv[0]);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = optind; i < argc; i++) {
		if (stat(argv[i], &st) == 0 && (size_t)st.st_size > max)
			max = st.st_size;
	}
	area_cap = (max + page) / page * page;
	if (area_cap > MAX_SEED + page)
		area_cap = MAX_SEED + page;
	end_area = guarded(area_cap, page, 1);
	start_area = guarded(area_cap, page, 0);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	if (replaying) {
		replay(argc - optind, argv + optind);
		return test_exit();
	}
	fixed_expectations();
	if (optind == argc)
		SKIP("no seed images given", "mutated seed images");
	for (int i = optind; i < argc; i++)
		run_seed(argv[i], i > optind);
	return test_exit();
}
