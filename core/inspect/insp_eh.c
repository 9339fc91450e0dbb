// SPDX-License-Identifier: MIT
/*
 * .eh_frame (the LSB's format, DWARF's CFI with pointer encodings): its
 * CIEs only for their FDE pointer encoding, its FDEs for the range each
 * covers. Every read is checked against the frame's bytes.
 */
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "core/inspect/insp_eh.h"

#define DW_EH_PE_omit 0xff

struct cursor {
	const struct vk_elf *e;
	size_t off, end;	/* file offsets */
	uint64_t vaddr0;	/* the vaddr of file offset off0 */
	size_t off0;
	int bad;
};

static uint64_t uleb(struct cursor *c)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (c->off < c->end) {
		unsigned char b = c->e->base[c->off++];

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
	c->bad = 1;
	return 0;
}

static int64_t sleb(struct cursor *c)
{
	int64_t v = 0;
	unsigned shift = 0;

	while (c->off < c->end) {
		unsigned char b = c->e->base[c->off++];

		if (shift < 64)
			v |= (int64_t)((uint64_t)(b & 0x7f) << shift);
		shift += 7;
		if (!(b & 0x80)) {
			if (shift < 64 && (b & 0x40))
				v |= -((int64_t)1 << shift);
			return v;
		}
	}
	c->bad = 1;
	return 0;
}

static uint64_t fixed(struct cursor *c, size_t n)
{
	uint64_t v;

	if (c->end - c->off < n) {
		c->bad = 1;
		return 0;
	}
	v = n == 1 ? c->e->base[c->off] : n == 2 ? vk_elf_u16(c->e, c->off) :
		n == 4 ? vk_elf_u32(c->e, c->off) : vk_elf_u64(c->e, c->off);
	c->off += n;
	return v;
}

/* A pointer in encoding enc; pc-relative ones against the field's vaddr. */
static uint64_t pointer(struct cursor *c, unsigned enc)
{
	uint64_t at = c->vaddr0 + (c->off - c->off0), v;

	switch (enc & 0x0f) {
	case 0x00: v = fixed(c, c->e->is64 ? 8 : 4); break;
	case 0x01: v = uleb(c); break;
	case 0x02: v = fixed(c, 2); break;
	case 0x03: v = fixed(c, 4); break;
	case 0x04: v = fixed(c, 8); break;
	case 0x09: v = (uint64_t)sleb(c); break;
	case 0x0a: v = (uint64_t)(int64_t)(int16_t)fixed(c, 2); break;
	case 0x0b: v = (uint64_t)(int64_t)(int32_t)fixed(c, 4); break;
	case 0x0c: v = fixed(c, 8); break;
	default: c->bad = 1; return 0;
	}
	if ((enc & 0x70) == 0x10)
		v += at;
	else if (enc & 0x70)
		c->bad = 1;	/* datarel, textrel, funcrel: no vDSO uses them */
	if (!c->e->is64)
		v &= 0xffffffff;
	return v;
}

/* The FDE pointer encoding a CIE's augmentation gives ("zR"). */
static int cie_encoding(const struct vk_elf *e, size_t off, size_t end, unsigned *enc)
{
	struct cursor c = { e, off, end, 0, off, 0 };
	const char *aug;
	size_t n;

	*enc = 0;
	c.off++;	/* version */
	aug = (const char *)e->base + c.off;
	n = strnlen(aug, end - c.off);
	if (n == end - c.off)
		return -1;
	c.off += n + 1;
	uleb(&c);	/* code alignment */
	sleb(&c);	/* data alignment */
	if (e->base[off] == 1)
		c.off++;
	else
		uleb(&c);	/* return address register */
	if (aug[0] != 'z')
		return c.bad ? -1 : 0;
	uleb(&c);	/* augmentation length */
	for (const char *a = aug + 1; *a && !c.bad; a++) {
		if (*a == 'R') {
			*enc = fixed(&c, 1);
			return c.bad ? -1 : 0;
		} else if (*a == 'P') {
			unsigned penc = fixed(&c, 1);

			pointer(&c, penc & 0x7f);
		} else if (*a == 'L') {
			fixed(&c, 1);
		} else if (*a != 'S' && *a != 'B') {
			return -1;
		}
	}
	return c.bad ? -1 : 0;
}

/*
 * The record at off, in the frame whose bytes are [start, end) at vaddr:
 * an FDE's range goes to f. Sets *next past it; 0 for the terminator, 1
 * for a record, -1 with f->err set for a malformed one.
 */
static int record(const struct vk_elf *e, size_t start, size_t end, uint64_t vaddr, size_t off,
		  struct vk_insp_fdes *f, size_t *next)
{
	uint32_t len, id;
	size_t rec = off + 4, cie;
	unsigned enc;

	if (off > end || end - off < 4 || (len = vk_elf_u32(e, off)) == 0xffffffff ||
	    (len && (len > end - rec || len < 4))) {
		snprintf(f->err, sizeof(f->err), "a record at %#zx runs past the frame", off);
		return -1;
	}
	if (len == 0)
		return 0;	/* the terminator */
	*next = rec + len;
	id = vk_elf_u32(e, rec);
	if (!id)
		return 1;	/* a CIE */
	/* An FDE: id is the distance back to its CIE. */
	struct cursor c = { e, rec + 4, *next, vaddr, start, 0 };

	cie = rec - id;
	if (id > rec - start || end - cie < 8 || cie_encoding(e, cie + 8, end, &enc)) {
		snprintf(f->err, sizeof(f->err), "the FDE at %#zx has no valid CIE", off);
		return -1;
	}
	uint64_t lo = pointer(&c, enc);
	uint64_t range = pointer(&c, enc & 0x0f);

	if (c.bad) {
		snprintf(f->err, sizeof(f->err), "the FDE at %#zx is malformed", off);
		return -1;
	}
	if (f->n < sizeof(f->lo) / sizeof(f->lo[0])) {
		f->lo[f->n] = lo;
		f->hi[f->n++] = lo + range;
	}
	return 1;
}

/* Every record from the frame's start to its terminator or its end. */
static void walk(const struct vk_elf *e, size_t off, size_t size, uint64_t vaddr,
		 struct vk_insp_fdes *f)
{
	size_t start = off, end = off + size, next;

	while (end - off >= 4 && record(e, start, end, vaddr, off, f, &next) == 1)
		off = next;
}

/*
 * .eh_frame_hdr's search table (ld writes it datarel sdata4, against the
 * header's start): the FDE each entry names, as an unwinder finds it,
 * for an image whose .eh_frame only the header locates: without section
 * headers nothing says where .eh_frame ends, and x86's has no terminator
 * before .text. 1 if the header has a table (its FDEs read into f), 0 if
 * not.
 */
static int table(const struct vk_elf *e, struct cursor *c, unsigned count_enc, unsigned table_enc,
		 size_t start, size_t end, uint64_t vaddr, struct vk_insp_fdes *f)
{
	uint64_t count, hdr = c->vaddr0, at;
	size_t off, next;

	if (count_enc == DW_EH_PE_omit || table_enc != 0x3b)
		return 0;
	count = pointer(c, count_enc);
	for (uint64_t i = 0; i < count && !c->bad && !f->err[0]; i++) {
		uint64_t pc = hdr + (uint64_t)(int64_t)(int32_t)fixed(c, 4);

		at = hdr + (uint64_t)(int64_t)(int32_t)fixed(c, 4);
		if (!e->is64)
			pc &= 0xffffffff, at &= 0xffffffff;
		if (c->bad)
			break;
		if (at < vaddr || at - vaddr >= end - start) {
			snprintf(f->err, sizeof(f->err), "its table's entry %llu names no FDE in the frame",
				 (unsigned long long)i);
			return 1;
		}
		off = start + (at - vaddr);
		if (record(e, start, end, vaddr, off, f, &next) != 1)
			return 1;
		if (f->n && f->lo[f->n - 1] != pc)
			snprintf(f->err, sizeof(f->err), "its table's entry %llu is for %#llx, its FDE for %#llx",
				 (unsigned long long)i, (unsigned long long)pc,
				 (unsigned long long)f->lo[f->n - 1]);
	}
	if (c->bad)
		snprintf(f->err, sizeof(f->err), "its table runs past the header");
	return 1;
}

/*
 * .eh_frame's section, walked; or, in an image without one, where
 * .eh_frame_hdr points, to the end of its segment: the FDEs its table
 * names, or a walk to the terminator where it has none. 0, or -1 with
 * f->none saying why none was found.
 */
static int read_fdes(const struct vk_elf *e, struct vk_insp_fdes *f)
{
	struct vk_elf_section s;
	struct vk_elf_phdr p;
	int empty = 0;

	if (vk_elf_section(e, ".eh_frame", &s) == 0) {
		f->where = "section .eh_frame";
		f->found = s.size > 0;
		walk(e, s.offset, s.size, s.addr, f);
		return 0;
	}
	for (size_t i = 0; vk_elf_phdr(e, i, &p) == 0; i++) {
		struct cursor c;
		size_t hdr, at;
		uint64_t frame;
		struct vk_elf_phdr q;

		if (p.type != PT_GNU_EH_FRAME)
			continue;
		empty = 1;
		if (vk_elf_vaddr_off(e, p.vaddr, 4, &hdr) || p.filesz < 8 || e->base[hdr] != 1)
			continue;
		c = (struct cursor){ e, hdr + 4, hdr + p.filesz, p.vaddr, hdr, 0 };
		frame = pointer(&c, e->base[hdr + 1]);
		if (c.bad || vk_elf_vaddr_off(e, frame, 0, &at))
			continue;
		for (size_t k = 0; vk_elf_phdr(e, k, &q) == 0; k++) {
			if (q.type == PT_LOAD && frame >= q.vaddr && frame - q.vaddr < q.filesz) {
				size_t size = q.filesz - (frame - q.vaddr);

				f->where = "PT_GNU_EH_FRAME";
				f->found = 1;
				if (!table(e, &c, e->base[hdr + 2], e->base[hdr + 3], at, at + size, frame, f))
					walk(e, at, size, frame, f);
				return 0;
			}
		}
	}
	f->none = empty ? "no section header names .eh_frame, and PT_GNU_EH_FRAME locates none"
			: "no section header names .eh_frame, and there is no PT_GNU_EH_FRAME";
	return -1;
}

void vk_insp_fdes(const struct vk_elf *e, struct vk_insp_fdes *f)
{
	memset(f, 0, sizeof(*f));
	read_fdes(e, f);
}

int vk_insp_fde_covers(const struct vk_insp_fdes *f, uint64_t addr, uint64_t size)
{
	uint64_t end = addr + (size ? size : 1);

	for (size_t i = 0; i < f->n; i++) {
		if (f->lo[i] < end && addr < f->hi[i])
			return 1;
	}
	return 0;
}
