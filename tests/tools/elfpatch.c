// SPDX-License-Identifier: MIT
/*
 * elfpatch: edit a shared object in place so that the ELF reader has to
 * take one of its other paths. It reads every field in the file's own
 * class and byte order, so it works on any image on any host.
 *
 *   elfpatch FILE OP...
 *     no-shdrs        drop the section header table: e_shoff, e_shnum
 *                     and e_shstrndx become 0
 *     no-dt-hash      turn the DT_HASH entry into a DT_DEBUG one, which
 *                     readers ignore, so that the table is not found
 *     no-dt-gnu-hash  likewise for DT_GNU_HASH
 *     null-name=SYM   set the st_name of the dynamic symbol SYM to 0, as
 *                     arm's kernel nulls out an entry it cannot serve
 *                     (found through the section headers)
 *
 * An operation that finds nothing to change is an error, so that an image
 * is never labelled with a variant it is not.
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct image {
	unsigned char *b;
	size_t size;
	int is64;
	int big;
	size_t w;		/* bytes in an address-sized field */
};

static int in_file(const struct image *im, uint64_t off, uint64_t len)
{
	return off <= im->size && len <= im->size - off;
}

/* An n-byte field at off, in the image's byte order; in bounds. */
static uint64_t get(const struct image *im, size_t off, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v = v << 8 | im->b[off + (im->big ? i : n - 1 - i)];
	return v;
}

static void put(struct image *im, size_t off, size_t n, uint64_t v)
{
	for (size_t i = 0; i < n; i++, v >>= 8)
		im->b[off + (im->big ? n - 1 - i : i)] = v & 0xff;
}

/* Offset of e_flags, after e_entry, e_phoff and e_shoff; the 16-bit
 * fields e_ehsize ... e_shstrndx follow it. */
static size_t after_addrs(const struct image *im)
{
	return 24 + 3 * im->w;
}

static int load(struct image *im, const char *path)
{
	FILE *f = fopen(path, "rb");
	long len;

	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		goto err;
	im->size = len;
	im->b = malloc(im->size ? im->size : 1);
	if (!im->b || fread(im->b, 1, im->size, f) != im->size)
		goto err;
	fclose(f);
	if (im->size < EI_NIDENT || memcmp(im->b, ELFMAG, SELFMAG) != 0 ||
	    (im->b[EI_CLASS] != ELFCLASS32 && im->b[EI_CLASS] != ELFCLASS64) ||
	    (im->b[EI_DATA] != ELFDATA2LSB && im->b[EI_DATA] != ELFDATA2MSB)) {
		fprintf(stderr, "elfpatch: %s: not an ELF file\n", path);
		return -1;
	}
	im->is64 = im->b[EI_CLASS] == ELFCLASS64;
	im->big = im->b[EI_DATA] == ELFDATA2MSB;
	im->w = im->is64 ? 8 : 4;
	if (!in_file(im, 0, im->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr))) {
		fprintf(stderr, "elfpatch: %s: truncated ELF header\n", path);
		return -1;
	}
	return 0;
err:
	perror(path);
	if (f)
		fclose(f);
	return -1;
}

static int save(const struct image *im, const char *path)
{
	FILE *f = fopen(path, "wb");
	int ok = f && fwrite(im->b, 1, im->size, f) == im->size;

	if (f && fclose(f))
		ok = 0;
	if (!ok)
		perror(path);
	return ok ? 0 : -1;
}

/* The table's bytes stay in the file, referenced by nothing. */
static int no_shdrs(struct image *im)
{
	size_t a = after_addrs(im);

	if (get(im, 24 + 2 * im->w, im->w) == 0)
		return -1;
	put(im, 24 + 2 * im->w, im->w, 0);	/* e_shoff */
	put(im, a + 12, 2, 0);			/* e_shnum */
	put(im, a + 14, 2, 0);			/* e_shstrndx */
	return 0;
}

/* File offset and size of the PT_DYNAMIC segment; -1 if there is none. */
static int find_dynamic(const struct image *im, size_t *off, size_t *len)
{
	uint64_t phoff = get(im, 24 + im->w, im->w);
	size_t a = after_addrs(im), phsize = get(im, a + 6, 2), phnum = get(im, a + 8, 2);

	if (phsize != (im->is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr)) ||
	    !in_file(im, phoff, (uint64_t)phsize * phnum))
		return -1;
	for (size_t i = 0; i < phnum; i++) {
		size_t p = phoff + i * phsize;
		/* p_offset follows p_type (and, in ELF64, p_flags). */
		size_t o = p + (im->is64 ? 8 : 4);
		uint64_t poff = get(im, o, im->w), filesz = get(im, o + 3 * im->w, im->w);

		if (get(im, p, 4) != PT_DYNAMIC)
			continue;
		if (!in_file(im, poff, filesz))
			return -1;
		*off = poff;
		*len = filesz;
		return 0;
	}
	return -1;
}

/* Rewrite every dynamic entry with tag `from` as a DT_DEBUG of value 0. */
static int retag(struct image *im, uint64_t from)
{
	size_t off, len, ent = 2 * im->w, n = 0;

	if (find_dynamic(im, &off, &len))
		return -1;
	for (size_t o = off; o + ent <= off + len; o += ent) {
		uint64_t tag = get(im, o, im->w);

		if (tag == DT_NULL)
			break;
		if (tag != from)
			continue;
		put(im, o, im->w, DT_DEBUG);
		put(im, o + im->w, im->w, 0);
		n++;
	}
	return n ? 0 : -1;
}

/* Section header i's field at off (in the ELF64 layout's order: name,
 * type, flags, addr, offset, size, link, info, addralign, entsize). */
static uint64_t shdr(const struct image *im, size_t i, int field)
{
	static const size_t at32[] = { 0, 4, 8, 12, 16, 20, 24, 28, 32, 36 };
	static const size_t at64[] = { 0, 4, 8, 16, 24, 32, 40, 44, 48, 56 };
	static const size_t n32[] = { 4, 4, 4, 4, 4, 4, 4, 4, 4, 4 };
	static const size_t n64[] = { 4, 4, 8, 8, 8, 8, 4, 4, 8, 8 };
	size_t a = after_addrs(im), shoff = get(im, 24 + 2 * im->w, im->w);
	size_t base = shoff + i * get(im, a + 10, 2);

	return get(im, base + (im->is64 ? at64 : at32)[field], (im->is64 ? n64 : n32)[field]);
}

static int null_name(struct image *im, const char *sym)
{
	size_t a = after_addrs(im), shnum = get(im, a + 12, 2), n = 0;
	size_t esz = im->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);

	if (get(im, a + 10, 2) != esz || !in_file(im, get(im, 24 + 2 * im->w, im->w), shnum * esz))
		return -1;
	for (size_t i = 0; i < shnum; i++) {
		uint64_t off = shdr(im, i, 4), size = shdr(im, i, 5), ent = shdr(im, i, 9);
		uint64_t link = shdr(im, i, 6), str, strsize;

		if (shdr(im, i, 1) != SHT_DYNSYM || !ent || !in_file(im, off, size) || link >= shnum)
			continue;
		str = shdr(im, link, 4);
		strsize = shdr(im, link, 5);
		if (!in_file(im, str, strsize))
			return -1;
		for (uint64_t o = off; o + ent <= off + size; o += ent) {
			uint64_t name = get(im, o, 4);

			if (name < strsize && !strncmp((char *)im->b + str + name, sym, strsize - name) &&
			    strlen(sym) < strsize - name) {
				put(im, o, 4, 0);
				n++;
			}
		}
	}
	return n ? 0 : -1;
}

/* 0 done, -1 nothing to change, -2 not an operation. */
static int apply(struct image *im, const char *op)
{
	if (strcmp(op, "no-shdrs") == 0)
		return no_shdrs(im);
	if (strcmp(op, "no-dt-hash") == 0)
		return retag(im, DT_HASH);
	if (strcmp(op, "no-dt-gnu-hash") == 0)
		return retag(im, DT_GNU_HASH);
	if (strncmp(op, "null-name=", 10) == 0)
		return null_name(im, op + 10);
	return -2;
}

int main(int argc, char **argv)
{
	struct image im = { 0 };
	int status;

	if (argc < 3) {
		fprintf(stderr, "usage: elfpatch FILE no-shdrs|no-dt-hash|no-dt-gnu-hash|null-name=SYM...\n");
		return 2;
	}
	status = load(&im, argv[1]) ? 1 : 0;
	for (int i = 2; !status && i < argc; i++) {
		int err = apply(&im, argv[i]);

		if (err == -2)
			fprintf(stderr, "elfpatch: unknown operation '%s'\n", argv[i]);
		else if (err)
			fprintf(stderr, "elfpatch: %s: nothing to change for %s\n", argv[1],
				argv[i]);
		if (err)
			status = err == -2 ? 2 : 1;
	}
	if (!status && save(&im, argv[1]))
		status = 1;
	free(im.b);
	return status;
}
