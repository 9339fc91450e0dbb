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

static void walk(const struct vk_elf *e, size_t off, size_t size, uint64_t vaddr,
		 struct vk_insp_fdes *f)
{
	size_t end = off + size;

	while (end - off >= 4) {
		uint32_t len = vk_elf_u32(e, off), id;
		size_t rec = off + 4, next;
		unsigned enc;

		if (len == 0)
			return;		/* the terminator */
		if (len == 0xffffffff || len > end - rec || len < 4) {
			snprintf(f->err, sizeof(f->err), "a record at %#zx runs past the frame", off);
			return;
		}
		next = rec + len;
		id = vk_elf_u32(e, rec);
		if (id) {
			/* An FDE: id is the distance back to its CIE. */
			struct cursor c = { e, rec + 4, next, vaddr, end - size, 0 };
			size_t cie = rec - id;

			if (id > rec - (end - size) || end - cie < 8 ||
			    cie_encoding(e, cie + 8, end, &enc)) {
				snprintf(f->err, sizeof(f->err), "the FDE at %#zx has no valid CIE", off);
				return;
			}
			uint64_t lo = pointer(&c, enc);
			uint64_t range = pointer(&c, enc & 0x0f);

			if (c.bad) {
				snprintf(f->err, sizeof(f->err), "the FDE at %#zx is malformed", off);
				return;
			}
			if (f->n < sizeof(f->lo) / sizeof(f->lo[0])) {
				f->lo[f->n] = lo;
				f->hi[f->n++] = lo + range;
			}
		}
		off = next;
	}
}

/* .eh_frame's section, or where .eh_frame_hdr points, to the end of its segment. */
static int locate(const struct vk_elf *e, size_t *off, size_t *size, uint64_t *vaddr,
		  const char **where)
{
	struct vk_elf_section s;
	struct vk_elf_phdr p;

	if (vk_elf_section(e, ".eh_frame", &s) == 0) {
		*off = s.offset;
		*size = s.size;
		*vaddr = s.addr;
		*where = "section .eh_frame";
		return 0;
	}
	for (size_t i = 0; vk_elf_phdr(e, i, &p) == 0; i++) {
		struct cursor c;
		size_t hdr, at;
		uint64_t frame;
		struct vk_elf_phdr q;

		if (p.type != PT_GNU_EH_FRAME || vk_elf_vaddr_off(e, p.vaddr, 4, &hdr))
			continue;
		c = (struct cursor){ e, hdr + 4, hdr + p.filesz, p.vaddr, hdr, 0 };
		if (p.filesz < 8 || e->base[hdr] != 1)
			return -1;
		frame = pointer(&c, e->base[hdr + 1]);
		if (c.bad || vk_elf_vaddr_off(e, frame, 0, &at))
			return -1;
		/* Its length is the rest of its segment; the terminator ends it. */
		for (size_t k = 0; vk_elf_phdr(e, k, &q) == 0; k++) {
			if (q.type == PT_LOAD && frame >= q.vaddr && frame - q.vaddr < q.filesz) {
				*off = at;
				*size = q.filesz - (frame - q.vaddr);
				*vaddr = frame;
				*where = "PT_GNU_EH_FRAME";
				return 0;
			}
		}
	}
	return -1;
}

void vk_insp_fdes(const struct vk_elf *e, struct vk_insp_fdes *f)
{
	size_t off, size;
	uint64_t vaddr;

	memset(f, 0, sizeof(*f));
	if (locate(e, &off, &size, &vaddr, &f->where))
		return;
	f->found = size > 0;
	walk(e, off, size, vaddr, f);
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
