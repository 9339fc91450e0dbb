// SPDX-License-Identifier: MIT
/*
 * The vDSO image reader. Nothing here trusts the image: every table is
 * checked to lie inside the (base, size) view when it is found, every walk
 * is bounded by a count derived from the view, and every string is checked
 * to end inside its string table before it is handed out.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/base/array.h"
#include "core/base/elf_ids.h"
#include "core/image/elf.h"

/* Tags of the dynamic section that the reader uses, indexed for lookup. */
enum dyn_slot {
	D_HASH, D_GNU_HASH, D_SYMTAB, D_STRTAB, D_STRSZ, D_SYMENT,
	D_VERSYM, D_VERDEF, D_VERDEFNUM, D_SONAME, D_NSLOTS
};

struct dyn_info {
	uint64_t val[D_NSLOTS];
	unsigned char seen[D_NSLOTS];
};

/* Program and section header fields, decoded from either class. */
struct phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, filesz, memsz;
};

struct shdr {
	uint32_t name, type, link, info;
	uint64_t addr, offset, size, entsize;
};

static int fail(struct vk_elf *e, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->err, sizeof(e->err), fmt, ap);
	va_end(ap);
	return -code;
}

static int in_image(const struct vk_elf *e, uint64_t off, uint64_t len)
{
	return off <= e->size && len <= e->size - off;
}

static uint16_t rd16(const struct vk_elf *e, size_t off)
{
	uint16_t v;

	memcpy(&v, e->base + off, sizeof(v));
	return e->swap ? __builtin_bswap16(v) : v;
}

static uint32_t rd32(const struct vk_elf *e, size_t off)
{
	uint32_t v;

	memcpy(&v, e->base + off, sizeof(v));
	return e->swap ? __builtin_bswap32(v) : v;
}

static uint64_t rd64(const struct vk_elf *e, size_t off)
{
	uint64_t v;

	memcpy(&v, e->base + off, sizeof(v));
	return e->swap ? __builtin_bswap64(v) : v;
}

/* An address-sized field: Elf32_Addr or Elf64_Addr. */
static uint64_t rdword(const struct vk_elf *e, size_t off)
{
	return e->is64 ? rd64(e, off) : rd32(e, off);
}

static size_t word_size(const struct vk_elf *e)
{
	return e->is64 ? 8 : 4;
}

/* Whether this host stores numbers most significant byte first. */
static int host_is_big_endian(void)
{
	const uint16_t one = 1;

	return *(const unsigned char *)&one == 0;
}

static int parse_ident(struct vk_elf *e)
{
	const unsigned char *id = e->base;

	if (e->size < EI_NIDENT)
		return fail(e, VK_ELF_ETRUNC, "image is %zu bytes, shorter than an ELF identification",
			    e->size);
	if (memcmp(id, ELFMAG, SELFMAG) != 0)
		return fail(e, VK_ELF_EMAGIC, "not an ELF image (bad magic)");
	if (id[EI_CLASS] != ELFCLASS32 && id[EI_CLASS] != ELFCLASS64)
		return fail(e, VK_ELF_ECLASS, "bad EI_CLASS %u", id[EI_CLASS]);
	if (id[EI_DATA] != ELFDATA2LSB && id[EI_DATA] != ELFDATA2MSB)
		return fail(e, VK_ELF_ECLASS, "bad EI_DATA %u", id[EI_DATA]);
	if (id[EI_VERSION] != EV_CURRENT)
		return fail(e, VK_ELF_ECLASS, "bad EI_VERSION %u", id[EI_VERSION]);
	e->is64 = id[EI_CLASS] == ELFCLASS64;
	e->big_endian = id[EI_DATA] == ELFDATA2MSB;
	e->swap = e->big_endian != host_is_big_endian();
	e->osabi = id[EI_OSABI];
	return 0;
}

static int check_table(struct vk_elf *e, const char *what, uint64_t off,
		       uint16_t entsize, uint16_t num, size_t want)
{
	if (num == 0)
		return 0;
	if (entsize != want)
		return fail(e, VK_ELF_ECLASS, "%s entry size is %u, expected %zu", what, entsize,
			    want);
	if (!in_image(e, off, (uint64_t)entsize * num))
		return fail(e, VK_ELF_ETRUNC, "%s table (%u x %u at offset %llu) runs past the end of the %zu-byte image",
			    what, num, entsize, (unsigned long long)off, e->size);
	return 0;
}

static size_t phdr_size(const struct vk_elf *e)
{
	return e->is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
}

static size_t shdr_size(const struct vk_elf *e)
{
	return e->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
}

/*
 * Decode the fields the reader uses and check that the program header
 * table lies in the image. A bad section header table is only a warning:
 * a vDSO needs no sections, so it is dropped (shnum 0) instead.
 */
static int parse_ehdr(struct vk_elf *e)
{
	size_t ehsize = e->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	size_t w = word_size(e);
	size_t flags_off = 24 + 3 * w;
	uint16_t phentsize, shentsize;
	int err;

	if (e->size < ehsize)
		return fail(e, VK_ELF_ETRUNC, "image is %zu bytes, shorter than its ELF header (%zu)",
			    e->size, ehsize);
	e->type = rd16(e, 16);
	e->machine = rd16(e, 18);
	if (rd32(e, 20) != EV_CURRENT)
		return fail(e, VK_ELF_ECLASS, "bad e_version %u", rd32(e, 20));
	if (e->type != ET_DYN)
		return fail(e, VK_ELF_ETYPE, "e_type is %u, not ET_DYN (a vDSO is a shared object)",
			    e->type);
	e->phoff = rdword(e, 24 + w);
	e->shoff = rdword(e, 24 + 2 * w);
	e->flags = rd32(e, flags_off);
	phentsize = rd16(e, flags_off + 6);
	e->phnum = rd16(e, flags_off + 8);
	shentsize = rd16(e, flags_off + 10);
	e->shnum = rd16(e, flags_off + 12);
	e->shstrndx = rd16(e, flags_off + 14);
	err = check_table(e, "program header", e->phoff, phentsize, e->phnum, phdr_size(e));
	if (err)
		return err;
	if (check_table(e, "section header", e->shoff, shentsize, e->shnum, shdr_size(e))) {
		snprintf(e->warn, sizeof(e->warn), "%s; sections ignored", e->err);
		e->err[0] = '\0';
		e->shnum = 0;
	}
	return 0;
}

static void read_phdr(const struct vk_elf *e, size_t i,
		      struct phdr *p)
{
	size_t o = e->phoff + i * phdr_size(e);

	p->type = rd32(e, o);
	if (e->is64) {
		p->flags = rd32(e, o + 4);
		p->offset = rd64(e, o + 8);
		p->vaddr = rd64(e, o + 16);
		p->filesz = rd64(e, o + 32);
		p->memsz = rd64(e, o + 40);
	} else {
		p->offset = rd32(e, o + 4);
		p->vaddr = rd32(e, o + 8);
		p->filesz = rd32(e, o + 16);
		p->memsz = rd32(e, o + 20);
		p->flags = rd32(e, o + 24);
	}
}

static void read_shdr(const struct vk_elf *e, size_t i,
		      struct shdr *s)
{
	size_t o = e->shoff + i * shdr_size(e);
	size_t w = word_size(e);

	s->name = rd32(e, o);
	s->type = rd32(e, o + 4);
	s->addr = rdword(e, o + 8 + w);
	s->offset = rdword(e, o + 8 + 2 * w);
	s->size = rdword(e, o + 8 + 3 * w);
	s->link = rd32(e, o + 8 + 4 * w);
	s->info = rd32(e, o + 12 + 4 * w);
	s->entsize = rdword(e, o + 16 + 5 * w);
}

/*
 * Translate a virtual address into a file offset through the PT_LOAD
 * segments, requiring len bytes to lie inside the segment's file part.
 */
static int vaddr_to_off(const struct vk_elf *e, uint64_t vaddr, uint64_t len, size_t *off)
{
	struct phdr p;

	for (size_t i = 0; i < e->phnum; i++) {
		read_phdr(e, i, &p);
		if (p.type != PT_LOAD || vaddr < p.vaddr)
			continue;
		if (vaddr - p.vaddr > p.filesz || len > p.filesz - (vaddr - p.vaddr))
			continue;
		if (!in_image(e, p.offset + (vaddr - p.vaddr), len))
			return 0;
		*off = p.offset + (vaddr - p.vaddr);
		return 1;
	}
	return 0;
}

static int slot_of(int64_t tag)
{
	switch (tag) {
	case DT_HASH: return D_HASH;
	case DT_GNU_HASH: return D_GNU_HASH;
	case DT_SYMTAB: return D_SYMTAB;
	case DT_STRTAB: return D_STRTAB;
	case DT_STRSZ: return D_STRSZ;
	case DT_SYMENT: return D_SYMENT;
	case DT_VERSYM: return D_VERSYM;
	case DT_VERDEF: return D_VERDEF;
	case DT_VERDEFNUM: return D_VERDEFNUM;
	case DT_SONAME: return D_SONAME;
	default: return -1;
	}
}

static int parse_dynamic(struct vk_elf *e, struct dyn_info *d)
{
	size_t entsize = 2 * word_size(e);
	struct phdr p;
	size_t n;

	memset(d, 0, sizeof(*d));
	for (size_t i = 0; i < e->phnum; i++) {
		read_phdr(e, i, &p);
		if (p.type != PT_DYNAMIC)
			continue;
		if (!in_image(e, p.offset, p.filesz))
			return fail(e, VK_ELF_ETRUNC, "PT_DYNAMIC (%llu bytes at offset %llu) runs past the end of the image",
				    (unsigned long long)p.filesz,
				    (unsigned long long)p.offset);
		e->dynamic.off = p.offset;
		e->dynamic.size = p.filesz;
		break;
	}
	n = e->dynamic.size / entsize;
	for (size_t i = 0; i < n; i++) {
		size_t o = e->dynamic.off + i * entsize;
		int64_t tag = e->is64 ? (int64_t)rd64(e, o) : (int32_t)rd32(e, o);
		int slot;

		if (tag == DT_NULL)
			break;
		slot = slot_of(tag);
		if (slot < 0)
			continue;
		d->val[slot] = rdword(e, o + word_size(e));
		d->seen[slot] = 1;
	}
	return 0;
}

/* Map a dynamic tag's address to a checked table; 0 if absent or bad. */
static int dyn_table(struct vk_elf *e, const struct dyn_info *d, int slot, uint64_t len,
		     struct vk_elf_table *t)
{
	size_t off;

	if (!d->seen[slot] || !vaddr_to_off(e, d->val[slot], len, &off))
		return 0;
	t->off = off;
	t->size = len;
	return 1;
}

/* Bytes left in the image from a dynamic tag's address, or 0. */
static uint64_t dyn_room(const struct vk_elf *e, const struct dyn_info *d, int slot)
{
	size_t off;

	if (!d->seen[slot] || !vaddr_to_off(e, d->val[slot], 0, &off))
		return 0;
	return e->size - off;
}

static void warn(struct vk_elf *e, const char *msg)
{
	if (!e->warn[0])
		snprintf(e->warn, sizeof(e->warn), "%s", msg);
}

/*
 * DT_GNU_HASH does not record the symbol count: it is one past the last
 * symbol reached from any bucket, found by walking that bucket's chain to
 * its end marker. Returns 0 and leaves gnu_hash empty if it is unusable.
 */
static int setup_gnu_hash(struct vk_elf *e, const struct dyn_info *d)
{
	uint64_t room = dyn_room(e, d, D_GNU_HASH);
	uint32_t nbuckets, symoffset, bloom_size;
	uint64_t head, buckets_off, chain_off;
	size_t off, last = 0;

	if (room < 16 || !dyn_table(e, d, D_GNU_HASH, 16, &e->gnu_hash))
		return 0;
	off = e->gnu_hash.off;
	nbuckets = rd32(e, off);
	symoffset = rd32(e, off + 4);
	bloom_size = rd32(e, off + 8);
	head = 16 + (uint64_t)bloom_size * word_size(e);
	if (nbuckets == 0 || bloom_size == 0 || (bloom_size & (bloom_size - 1)) ||
	    head + (uint64_t)nbuckets * 4 > room)
		goto bad;
	buckets_off = off + head;
	chain_off = buckets_off + (uint64_t)nbuckets * 4;
	for (uint32_t b = 0; b < nbuckets; b++) {
		uint32_t idx = rd32(e, buckets_off + 4 * b);

		if (idx != 0 && idx < symoffset)
			goto bad;
		if (idx > last)
			last = idx;
	}
	if (last == 0) {
		e->nsyms = symoffset;
	} else {
		/* Walk the last chain to its end; each step is bounds-checked. */
		for (;;) {
			uint64_t at = chain_off + 4 * ((uint64_t)last - symoffset);

			if (!in_image(e, at, 4))
				goto bad;
			if (rd32(e, at) & 1)
				break;
			last++;
		}
		e->nsyms = last + 1;
	}
	e->gnu_hash.size = chain_off + 4 * ((uint64_t)e->nsyms - symoffset) - off;
	e->symsrc = VK_SYMSRC_GNU_HASH;
	return 1;
bad:
	e->gnu_hash.size = 0;
	warn(e, "DT_GNU_HASH is malformed; ignored");
	return 0;
}

/* s390x and alpha use 8-byte words in DT_HASH; everyone else 4. */
static size_t hash_entsize(const struct vk_elf *e)
{
	return e->is64 && (e->machine == EM_S390 || e->machine == EM_ALPHA) ? 8 : 4;
}

static uint64_t hash_word(const struct vk_elf *e, size_t off)
{
	return e->hash_entsize == 8 ? rd64(e, off) : rd32(e, off);
}

static int setup_hash(struct vk_elf *e, const struct dyn_info *d, int count_syms)
{
	uint64_t room = dyn_room(e, d, D_HASH);
	size_t es = hash_entsize(e);
	uint64_t nbucket, nchain, len;

	e->hash_entsize = es;
	if (room < 2 * es || !dyn_table(e, d, D_HASH, 2 * es, &e->hash))
		return 0;
	nbucket = hash_word(e, e->hash.off);
	nchain = hash_word(e, e->hash.off + es);
	len = (2 + nbucket + nchain) * es;
	if (nbucket == 0 || nbucket > room || nchain > room || len > room) {
		e->hash.size = 0;
		warn(e, "DT_HASH is malformed; ignored");
		return 0;
	}
	e->hash.size = len;
	if (count_syms) {
		e->nsyms = nchain;
		e->symsrc = VK_SYMSRC_HASH;
	}
	return 1;
}

static int setup_from_dynamic(struct vk_elf *e, const struct dyn_info *d)
{
	size_t want = e->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	int counted;

	if (!d->seen[D_SYMTAB] || !d->seen[D_STRTAB])
		return 0;
	if (d->seen[D_SYMENT] && d->val[D_SYMENT] != want)
		return fail(e, VK_ELF_ECLASS, "DT_SYMENT is %llu, expected %zu",
			    (unsigned long long)d->val[D_SYMENT], want);
	e->syment = want;
	if (!dyn_table(e, d, D_STRTAB, d->val[D_STRSZ], &e->strtab))
		return fail(e, VK_ELF_ELAYOUT, "DT_STRTAB/DT_STRSZ lie outside the loaded image");
	counted = setup_gnu_hash(e, d);
	setup_hash(e, d, !counted);
	if (!e->gnu_hash.size && !e->hash.size)
		return 0;
	if (!dyn_table(e, d, D_SYMTAB, (uint64_t)e->nsyms * e->syment, &e->symtab))
		return fail(e, VK_ELF_ELAYOUT, "%zu symbols at DT_SYMTAB run past the end of the image",
			    e->nsyms);
	if (d->seen[D_VERSYM] &&
	    !dyn_table(e, d, D_VERSYM, (uint64_t)e->nsyms * 2, &e->versym))
		return fail(e, VK_ELF_EVERSION, "DT_VERSYM table runs past the end of the image");
	if (d->seen[D_VERDEF]) {
		e->verdefnum = d->seen[D_VERDEFNUM] ? d->val[D_VERDEFNUM] : SIZE_MAX;
		if (!dyn_table(e, d, D_VERDEF, 20, &e->verdef))
			return fail(e, VK_ELF_EVERSION, "DT_VERDEF lies outside the loaded image");
		e->verdef.size = e->size - e->verdef.off;
	}
	return 1;
}

static int section_table(struct vk_elf *e, const struct shdr *s,
			 struct vk_elf_table *t)
{
	if (!in_image(e, s->offset, s->size))
		return 0;
	t->off = s->offset;
	t->size = s->size;
	return 1;
}

/* The fallback when the dynamic section has no usable hash table. */
static int setup_from_sections(struct vk_elf *e)
{
	size_t want = e->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	struct shdr s, str;

	for (size_t i = 0; i < e->shnum; i++) {
		read_shdr(e, i, &s);
		if (s.type != SHT_DYNSYM)
			continue;
		if (s.entsize != want || s.link >= e->shnum)
			return fail(e, VK_ELF_ESYMS, "section .dynsym has entry size %llu or link %u out of range",
				    (unsigned long long)s.entsize, s.link);
		read_shdr(e, s.link, &str);
		if (str.type != SHT_STRTAB || !section_table(e, &s, &e->symtab) ||
		    !section_table(e, &str, &e->strtab))
			return fail(e, VK_ELF_ESYMS, "section .dynsym or its string table lies outside the image");
		e->syment = want;
		e->nsyms = s.size / want;
		e->symsrc = VK_SYMSRC_SECTIONS;
		break;
	}
	if (!e->symtab.size)
		return fail(e, VK_ELF_ESYMS, "no dynamic symbol table: no DT_GNU_HASH, DT_HASH or .dynsym section");
	e->versym.size = e->verdef.size = 0;
	for (size_t i = 0; i < e->shnum; i++) {
		read_shdr(e, i, &s);
		if (s.type == SHT_GNU_versym) {
			if (s.size < e->nsyms * 2 || !section_table(e, &s, &e->versym))
				return fail(e, VK_ELF_EVERSION, "section .gnu.version is too short or outside the image");
		} else if (s.type == SHT_GNU_verdef) {
			if (!section_table(e, &s, &e->verdef))
				return fail(e, VK_ELF_EVERSION, "section .gnu.version_d lies outside the image");
			e->verdefnum = s.info;
		}
	}
	return 0;
}

static const char *str_at(const struct vk_elf *e, uint64_t i)
{
	const char *s;

	if (i >= e->strtab.size)
		return NULL;
	s = (const char *)e->base + e->strtab.off + i;
	if (!memchr(s, '\0', e->strtab.size - i))
		return NULL;
	return s;
}

/* Verdef entries are 20 bytes and Verdaux 8 in both classes. */
#define VERDEF_SIZE 20
#define VERDAUX_SIZE 8
/*
 * A vDSO has a handful of symbols and two or three version definitions.
 * Far more is no vDSO, and would make the lookups that cross-check the
 * hash tables quadratic in a hostile image's size.
 */
#define MAX_VERDEFS 256
#define MAX_SYMS 4096

/*
 * Walk the verdef chain once at open time, so that later lookups may rely
 * on it: every entry and its first aux in bounds, names in the string
 * table, the walk ended by vd_next == 0 or DT_VERDEFNUM entries.
 */
static int check_verdefs(struct vk_elf *e)
{
	size_t off = e->verdef.off, n = 0;
	size_t limit = e->size / VERDEF_SIZE;

	/* No table, no definitions, whatever a count elsewhere claims. */
	if (!e->verdef.size) {
		e->verdefnum = 0;
		return 0;
	}
	for (;;) {
		uint32_t aux, next;

		if (n == MAX_VERDEFS)
			return fail(e, VK_ELF_EVERSION, "more than %d version definitions: no vDSO has so many",
				    MAX_VERDEFS);
		if (++n > limit || !in_image(e, off, VERDEF_SIZE))
			return fail(e, VK_ELF_EVERSION, "version definition %zu lies outside the image",
				    n - 1);
		if (rd16(e, off) != 1)
			return fail(e, VK_ELF_EVERSION, "version definition %zu has vd_version %u",
				    n - 1, rd16(e, off));
		aux = rd32(e, off + 12);
		next = rd32(e, off + 16);
		if (!in_image(e, (uint64_t)off + aux, VERDAUX_SIZE) ||
		    !str_at(e, rd32(e, off + aux)))
			return fail(e, VK_ELF_EVERSION, "version definition %zu has a bad name",
				    n - 1);
		if (next == 0 || n == e->verdefnum)
			break;
		off += next;
	}
	e->verdefnum = n;
	return 0;
}

/* Every loaded segment's file part is in the image: a truncated image is
 * refused, and no table's offset can wrap around through one. */
static int check_loads(struct vk_elf *e)
{
	struct phdr p;

	for (size_t i = 0; i < e->phnum; i++) {
		read_phdr(e, i, &p);
		if (p.type == PT_LOAD && !in_image(e, p.offset, p.filesz))
			return fail(e, VK_ELF_ETRUNC, "PT_LOAD %zu (%llu bytes at offset %llu) runs past the end of the %zu-byte image",
				    i, (unsigned long long)p.filesz, (unsigned long long)p.offset,
				    e->size);
	}
	return 0;
}

static int parse(struct vk_elf *e)
{
	struct dyn_info d;
	int err;

	if ((err = parse_ident(e)) || (err = parse_ehdr(e)) || (err = check_loads(e)))
		return err;
	if ((err = parse_dynamic(e, &d)))
		return err;
	err = setup_from_dynamic(e, &d);
	if (err < 0)
		return err;
	if (err == 0 && (err = setup_from_sections(e)))
		return err;
	if (e->nsyms > MAX_SYMS)
		return fail(e, VK_ELF_ESYMS, "%zu symbols: no vDSO has more than %d", e->nsyms,
			    MAX_SYMS);
	if (e->versym.size && !e->verdef.size)
		return fail(e, VK_ELF_EVERSION, "symbol versions without version definitions");
	if ((err = check_verdefs(e)))
		return err;
	if (d.seen[D_SONAME])
		e->soname = str_at(e, d.val[D_SONAME]);
	return 0;
}

int vk_elf_open(struct vk_elf *e, const void *base, size_t size)
{
	memset(e, 0, sizeof(*e));
	e->base = base;
	e->size = size;
	return parse(e);
}

const char *vk_elf_strerror(int error)
{
	static const char *const msgs[] = {
		[VK_ELF_OK] = "success",
		[VK_ELF_ETRUNC] = "image truncated",
		[VK_ELF_EMAGIC] = "not an ELF image",
		[VK_ELF_ECLASS] = "unsupported ELF class, byte order or entry size",
		[VK_ELF_ETYPE] = "not a shared object",
		[VK_ELF_ELAYOUT] = "inconsistent segments or dynamic section",
		[VK_ELF_ESYMS] = "no usable dynamic symbol table",
		[VK_ELF_EVERSION] = "malformed symbol versioning",
	};

	if (error < 0)
		error = -error;
	if ((size_t)error >= ARRAY_SIZE(msgs))
		return "unknown error";
	return msgs[error];
}

size_t vk_elf_image_size(const void *base, size_t limit, size_t pagesize)
{
	struct vk_elf e;
	struct phdr p;
	uint64_t end, mapped = 0, sh_end;

	memset(&e, 0, sizeof(e));
	e.base = base;
	e.size = limit;
	if (parse_ident(&e) || parse_ehdr(&e))
		return 0;
	end = e.phoff + (uint64_t)e.phnum * phdr_size(&e);
	for (size_t i = 0; i < e.phnum; i++) {
		read_phdr(&e, i, &p);
		if (p.type != PT_LOAD || p.memsz < p.filesz || p.offset > UINT64_MAX / 2 ||
		    p.memsz > UINT64_MAX / 4)
			continue;
		if (p.offset + p.filesz > end)
			end = p.offset + p.filesz;
		if ((p.offset + p.memsz + pagesize - 1) / pagesize * pagesize > mapped)
			mapped = (p.offset + p.memsz + pagesize - 1) / pagesize * pagesize;
	}
	if (mapped == 0 || end > mapped)
		return 0;
	/* Section headers follow the segments in a vDSO and are mapped with
	 * them: count them only when they lie inside the mapped pages. */
	e.size = mapped;
	parse_ehdr(&e);
	sh_end = e.shoff + (uint64_t)e.shnum * shdr_size(&e);
	return e.shnum && sh_end > end ? sh_end : end;
}

static int read_sym(const struct vk_elf *e, size_t i, uint32_t *name,
		    struct vk_elf_sym *s)
{
	size_t o = e->symtab.off + i * e->syment;
	unsigned char info;

	if (i >= e->nsyms)
		return -1;
	*name = rd32(e, o);
	if (e->is64) {
		info = e->base[o + 4];
		s->shndx = rd16(e, o + 6);
		s->value = rd64(e, o + 8);
		s->size = rd64(e, o + 16);
	} else {
		s->value = rd32(e, o + 4);
		s->size = rd32(e, o + 8);
		info = e->base[o + 12];
		s->shndx = rd16(e, o + 14);
	}
	s->type = info & 0xf;
	s->bind = info >> 4;
	s->index = i;
	return 0;
}

static void read_verdef(const struct vk_elf *e, size_t off, struct vk_elf_verdef *v)
{
	v->flags = rd16(e, off + 2);
	v->index = rd16(e, off + 4);
	v->hash = rd32(e, off + 8);
	v->name = str_at(e, rd32(e, off + rd32(e, off + 12)));
}

/* One walk of the chain: lookups run once per symbol, and a hostile
 * image has hundreds of definitions. */
static int find_verdef(const struct vk_elf *e, uint16_t ndx, struct vk_elf_verdef *v)
{
	size_t off = e->verdef.off;

	for (size_t i = 0; i < e->verdefnum; i++) {
		if (rd16(e, off + 4) == ndx) {
			read_verdef(e, off, v);
			return 0;
		}
		off += rd32(e, off + 16);
	}
	return -1;
}

int vk_elf_verdef(const struct vk_elf *e, size_t i, struct vk_elf_verdef *v)
{
	size_t off = e->verdef.off;

	if (i >= e->verdefnum)
		return -1;
	/* check_verdefs() proved the first verdefnum entries are in bounds. */
	while (i--)
		off += rd32(e, off + 16);
	read_verdef(e, off, v);
	return 0;
}

/* The image's address for st_value, translated to a file offset. */
static size_t sym_offset(const struct vk_elf *e, uint64_t value)
{
	size_t off;

	return vaddr_to_off(e, value, 1, &off) ? off : SIZE_MAX;
}

int vk_elf_sym(const struct vk_elf *e, size_t index, struct vk_elf_sym *s)
{
	struct vk_elf_verdef v;
	uint32_t name;

	memset(s, 0, sizeof(*s));
	if (read_sym(e, index, &name, s))
		return -1;
	s->name = str_at(e, name);
	if (!s->name)
		return -1;
	s->offset = s->shndx == SHN_UNDEF ? SIZE_MAX : sym_offset(e, s->value);
	if (e->versym.size) {
		uint16_t vs = rd16(e, e->versym.off + 2 * index);

		s->hidden = !!(vs & 0x8000);
		vs &= 0x7fff;
		if (vs > 1 && find_verdef(e, vs, &v) == 0)
			s->version = v.name;
	}
	return 0;
}

/* What a libc accepts as a vDSO function: defined, global or weak. */
static int usable(const struct vk_elf_sym *s)
{
	return s->shndx != SHN_UNDEF &&
	       (s->bind == STB_GLOBAL || s->bind == STB_WEAK) &&
	       (s->type == STT_FUNC || s->type == STT_NOTYPE || s->type == STT_OBJECT);
}

/*
 * A request for a version matches the definition of that name whose hash
 * agrees, hidden or not; a request for no version takes the default one.
 */
static int version_matches(const struct vk_elf *e, size_t index,
			   const char *version)
{
	struct vk_elf_verdef v;
	uint16_t vs;

	if (!e->versym.size)
		return 1;
	vs = rd16(e, e->versym.off + 2 * index);
	if ((vs & 0x7fff) == 0)
		return 0;
	/* Index 1 is "global, unversioned", whatever definition claims it. */
	if (!version || (vs & 0x7fff) == 1)
		return !version && !(vs & 0x8000);
	if (find_verdef(e, vs & 0x7fff, &v) || (v.flags & VER_FLG_BASE))
		return 0;
	return v.name && strcmp(v.name, version) == 0 && v.hash == vk_elf_hash(version);
}

/* The name first: it is cheap, and most symbols on a chain differ in it. */
static int match(const struct vk_elf *e, size_t i, const char *name,
		 const char *version, struct vk_elf_sym *s)
{
	struct vk_elf_sym raw;
	uint32_t st_name;
	const char *n;

	if (read_sym(e, i, &st_name, &raw) || !(n = str_at(e, st_name)) || strcmp(n, name))
		return 0;
	return vk_elf_sym(e, i, s) == 0 && usable(s) && version_matches(e, i, version);
}

static int lookup_linear(const struct vk_elf *e, const char *name,
			 const char *version, struct vk_elf_sym *s)
{
	for (size_t i = 1; i < e->nsyms; i++) {
		if (match(e, i, name, version, s))
			return 0;
	}
	return -1;
}

static int lookup_gnu(const struct vk_elf *e, const char *name,
		      const char *version, struct vk_elf_sym *s)
{
	size_t off = e->gnu_hash.off, w = word_size(e), bits = 8 * w;
	uint32_t nbuckets = rd32(e, off), symoffset = rd32(e, off + 4);
	uint32_t bloom_size = rd32(e, off + 8), shift = rd32(e, off + 12);
	uint32_t h = vk_gnu_hash(name);
	size_t buckets = off + 16 + bloom_size * w;
	size_t chain = buckets + 4 * (size_t)nbuckets;
	uint64_t word = rdword(e, off + 16 + (h / bits & (bloom_size - 1)) * w);
	uint64_t mask = 1ull << (h % bits) | 1ull << ((h >> (shift & 31)) % bits);

	if ((word & mask) != mask)
		return -1;
	for (size_t i = rd32(e, buckets + 4 * (h % nbuckets)); i && i < e->nsyms; i++) {
		uint32_t h2 = rd32(e, chain + 4 * (i - symoffset));

		if ((h | 1) == (h2 | 1) && match(e, i, name, version, s))
			return 0;
		if (h2 & 1)
			break;
	}
	return -1;
}

static int lookup_sysv(const struct vk_elf *e, const char *name,
		       const char *version, struct vk_elf_sym *s)
{
	size_t es = e->hash_entsize, off = e->hash.off;
	uint64_t nbucket = hash_word(e, off), nchain = hash_word(e, off + es);
	size_t buckets = off + 2 * es, chain = buckets + nbucket * es;
	uint64_t i = hash_word(e, buckets + (vk_elf_hash(name) % nbucket) * es);

	/* A chain longer than nchain has a loop in it. */
	for (uint64_t n = 0; i != STN_UNDEF && i < nchain && n < nchain; n++) {
		if (match(e, i, name, version, s))
			return 0;
		i = hash_word(e, chain + i * es);
	}
	return -1;
}

int vk_elf_lookup_in(const struct vk_elf *e, enum vk_elf_symsrc src,
		     const char *name, const char *version, struct vk_elf_sym *s)
{
	switch (src) {
	case VK_SYMSRC_GNU_HASH:
		return e->gnu_hash.size ? lookup_gnu(e, name, version, s) : -1;
	case VK_SYMSRC_HASH:
		return e->hash.size ? lookup_sysv(e, name, version, s) : -1;
	default:
		return lookup_linear(e, name, version, s);
	}
}

int vk_elf_lookup(const struct vk_elf *e, const char *name,
		  const char *version, struct vk_elf_sym *s)
{
	return vk_elf_lookup_in(e, e->symsrc, name, version, s);
}

static int check_table_finds_all(const struct vk_elf *e, enum vk_elf_symsrc src,
				 char *msg, size_t len)
{
	struct vk_elf_sym s, found;

	for (size_t i = 1; i < e->nsyms; i++) {
		/* A nameless symbol (an entry nulled out in place) has no name to find. */
		if (vk_elf_sym(e, i, &s) || !usable(&s) || !s.name[0])
			continue;
		if (vk_elf_lookup_in(e, src, s.name, s.version, &found)) {
			snprintf(msg, len, "%s%s%s is not found through %s", s.name,
				 s.version ? "@" : "", s.version ? s.version : "",
				 vk_elf_symsrc_name(src));
			return -1;
		}
	}
	return 0;
}

int vk_elf_nulled(const struct vk_elf *e)
{
	struct vk_elf_sym s;
	int n = 0;

	for (size_t i = 1; i < e->nsyms; i++) {
		if (vk_elf_sym(e, i, &s) == 0 && s.type == STT_FUNC && s.shndx != SHN_UNDEF &&
		    !s.name[0])
			n++;
	}
	return n;
}

int vk_elf_check_hashes(const struct vk_elf *e, char *msg, size_t len)
{
	uint64_t nchain;

	if (e->gnu_hash.size && e->hash.size) {
		nchain = hash_word(e, e->hash.off + e->hash_entsize);
		if (nchain != e->nsyms) {
			snprintf(msg, len, "DT_HASH counts %llu symbols, DT_GNU_HASH %zu",
				 (unsigned long long)nchain, e->nsyms);
			return -1;
		}
	}
	if (e->gnu_hash.size && check_table_finds_all(e, VK_SYMSRC_GNU_HASH, msg, len))
		return -1;
	if (e->hash.size && check_table_finds_all(e, VK_SYMSRC_HASH, msg, len))
		return -1;
	return 0;
}

static size_t align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

static int note_in(const struct vk_elf *e, size_t off, size_t len,
		   const char *name, uint32_t type, struct vk_elf_note *n)
{
	size_t end = off + len;

	while (end - off >= 12) {
		uint32_t namesz = rd32(e, off), descsz = rd32(e, off + 4);
		size_t name_off = off + 12, desc_off;

		if (namesz > end - name_off || align4(namesz) > end - name_off)
			return -1;
		desc_off = name_off + align4(namesz);
		if (descsz > end - desc_off)
			return -1;
		n->name = (const char *)e->base + name_off;
		n->type = rd32(e, off + 8);
		n->desc = e->base + desc_off;
		n->descsz = descsz;
		if (namesz && n->name[namesz - 1] == '\0' && strcmp(n->name, name) == 0 &&
		    n->type == type)
			return 0;
		if (align4(descsz) > end - desc_off)
			return -1;
		off = desc_off + align4(descsz);
	}
	return -1;
}

int vk_elf_find_note(const struct vk_elf *e, const char *name, uint32_t type,
		     struct vk_elf_note *n)
{
	struct phdr p;

	for (size_t i = 0; i < e->phnum; i++) {
		read_phdr(e, i, &p);
		if (p.type == PT_NOTE && in_image(e, p.offset, p.filesz) &&
		    note_in(e, p.offset, p.filesz, name, type, n) == 0)
			return 0;
	}
	return -1;
}

int vk_elf_linux_version(const struct vk_elf *e, uint32_t *code)
{
	struct vk_elf_note n;
	uint32_t v;

	if (vk_elf_find_note(e, "Linux", 0, &n) || n.descsz < 4)
		return -1;
	memcpy(&v, n.desc, sizeof(v));
	*code = e->swap ? __builtin_bswap32(v) : v;
	return 0;
}

uint32_t vk_elf_hash(const char *name)
{
	const unsigned char *p = (const unsigned char *)name;
	uint32_t h = 0, g;

	while (*p) {
		h = (h << 4) + *p++;
		g = h & 0xf0000000;
		if (g)
			h ^= g >> 24;
		h &= ~g;
	}
	return h;
}

uint32_t vk_gnu_hash(const char *name)
{
	const unsigned char *p = (const unsigned char *)name;
	uint32_t h = 5381;

	while (*p)
		h = h * 33 + *p++;
	return h;
}

const char *vk_elf_machine_name(uint16_t machine)
{
	switch (machine) {
	case EM_386: return "i386";
	case EM_X86_64: return "x86_64";
	case EM_ARM: return "arm";
	case EM_AARCH64: return "aarch64";
	case EM_PPC: return "powerpc";
	case EM_PPC64: return "powerpc64";
	case EM_S390: return "s390";
	case EM_RISCV: return "riscv";
	case EM_MIPS: return "mips";
	case EM_LOONGARCH: return "loongarch";
	case EM_SPARCV9: return "sparc64";
	case EM_SPARC32PLUS: return "sparc32plus";
	case EM_SPARC: return "sparc";
	case EM_SH: return "sh";
	case EM_PARISC: return "parisc";
	case EM_CSKY: return "csky";
	case EM_IA_64: return "ia64";
	case EM_ALPHA: return "alpha";
	default: return "unknown";
	}
}

const char *vk_elf_symsrc_name(enum vk_elf_symsrc src)
{
	switch (src) {
	case VK_SYMSRC_GNU_HASH: return "DT_GNU_HASH";
	case VK_SYMSRC_HASH: return "DT_HASH";
	default: return "section headers";
	}
}

const char *vk_elf_sym_type_name(unsigned type)
{
	switch (type) {
	case STT_NOTYPE: return "NOTYPE";
	case STT_OBJECT: return "OBJECT";
	case STT_FUNC: return "FUNC";
	case STT_SECTION: return "SECTION";
	case STT_FILE: return "FILE";
	default: return "OTHER";
	}
}

const char *vk_elf_sym_bind_name(unsigned bind)
{
	switch (bind) {
	case STB_LOCAL: return "LOCAL";
	case STB_GLOBAL: return "GLOBAL";
	case STB_WEAK: return "WEAK";
	case STB_GNU_UNIQUE: return "UNIQUE";
	default: return "OTHER";
	}
}

/* What core/inspect reads beyond the symbols: headers, sections, the
 * dynamic section's tags and the image's words, each checked here. */
int vk_elf_phdr(const struct vk_elf *e, size_t i, struct vk_elf_phdr *out)
{
	struct phdr p;

	if (i >= e->phnum)
		return -1;
	read_phdr(e, i, &p);
	*out = (struct vk_elf_phdr){ p.type, p.flags, p.offset, p.vaddr, p.filesz, p.memsz };
	return 0;
}

int vk_elf_section(const struct vk_elf *e, const char *name, struct vk_elf_section *out)
{
	struct shdr names, s;

	if (!e->shnum || e->shstrndx >= e->shnum)
		return -1;
	read_shdr(e, e->shstrndx, &names);
	if (!in_image(e, names.offset, names.size))
		return -1;
	for (size_t i = 1; i < e->shnum; i++) {
		const char *n;

		read_shdr(e, i, &s);
		if (s.name >= names.size)
			continue;
		n = (const char *)e->base + names.offset + s.name;
		if (!memchr(n, '\0', names.size - s.name) || strcmp(n, name))
			continue;
		/* SHT_NOBITS has no bytes in the file. */
		if (s.type != SHT_NOBITS && !in_image(e, s.offset, s.size))
			return -1;
		*out = (struct vk_elf_section){ n, s.type, s.addr, s.offset,
						s.type == SHT_NOBITS ? 0 : s.size };
		return 0;
	}
	return -1;
}

int vk_elf_dyn(const struct vk_elf *e, size_t i, int64_t *tag, uint64_t *val)
{
	size_t entsize = 2 * word_size(e), o = e->dynamic.off + i * entsize;

	if (i >= e->dynamic.size / entsize)
		return -1;
	*tag = e->is64 ? (int64_t)rd64(e, o) : (int32_t)rd32(e, o);
	*val = rdword(e, o + word_size(e));
	return *tag == DT_NULL ? -1 : 0;
}

int vk_elf_vaddr_off(const struct vk_elf *e, uint64_t vaddr, uint64_t len, size_t *off)
{
	return vaddr_to_off(e, vaddr, len, off) ? 0 : -1;
}

uint16_t vk_elf_u16(const struct vk_elf *e, size_t off)
{
	return rd16(e, off);
}

uint32_t vk_elf_u32(const struct vk_elf *e, size_t off)
{
	return rd32(e, off);
}

uint64_t vk_elf_u64(const struct vk_elf *e, size_t off)
{
	return rd64(e, off);
}
