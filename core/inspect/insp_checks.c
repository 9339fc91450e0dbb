// SPDX-License-Identifier: MIT
/*
 * inspect's whole-image checks. Each passes, fails (the image breaks a
 * rule every vDSO keeps) or SKIPs with why (the arch never promised it,
 * or the image claims nothing to check).
 */
#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/base/elf_ids.h"
#include "core/inspect/insp_checks.h"
#include "core/inspect/insp_eh.h"

#ifndef DT_RELRSZ
#define DT_RELRSZ 35
#define DT_RELR 36
#endif
#ifndef NT_GNU_PROPERTY_TYPE_0
#define NT_GNU_PROPERTY_TYPE_0 5
#endif

static const char *const names[VK_INSP_NCHECKS] = {
	[VK_CHK_RELOCS] = "no-dynamic-relocations",
	[VK_CHK_UNDEF] = "no-undefined-symbols",
	[VK_CHK_WX] = "no-writable-executable-segment",
	[VK_CHK_STACK_EXEC] = "stack-not-executable",
	[VK_CHK_FDES] = "fde-per-function",
	[VK_CHK_EH_FRAME_HDR] = "eh-frame-hdr",
	[VK_CHK_INDIRECT] = "no-indirect-branches",
	[VK_CHK_PROBES] = "no-stack-probes",
	[VK_CHK_PROPERTY] = "gnu-property-landing-pads",
};

static void set(struct vk_inspect *out, enum vk_insp_check_id id, enum vk_insp_status st,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void set(struct vk_inspect *out, enum vk_insp_check_id id, enum vk_insp_status st,
		const char *fmt, ...)
{
	struct vk_insp_check *c = &out->check[id];
	va_list ap;

	c->name = names[id];
	c->status = st;
	va_start(ap, fmt);
	vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
	va_end(ap);
	out->fails += st == VK_INSP_FAIL;
	out->skips += st == VK_INSP_SKIP;
}

/* Append ", s" (or "s" first) to buf, as far as it fits. */
static void append(char *buf, size_t len, const char *s)
{
	size_t o = strlen(buf);

	snprintf(buf + o, len - o, "%s%s", o ? ", " : "", s);
}

/* A relocation's type. mips64 keeps three types and a symbol in r_info,
 * the symbol first in the file: read in its byte order, the types are
 * the low word big-endian, the high word little-endian. */
static uint64_t rel_type(const struct vk_elf *e, uint64_t info)
{
	if (!e->is64)
		return info & 0xff;
	if (e->machine == EM_MIPS && !e->big_endian)
		return info >> 32;
	return info & 0xffffffff;
}

struct reltab {
	int64_t addr_tag, size_tag, ent_tag;
	const char *name;
	int rela;
};

static const struct reltab reltabs[] = {
	{ DT_REL, DT_RELSZ, DT_RELENT, "DT_REL", 0 },
	{ DT_RELA, DT_RELASZ, DT_RELAENT, "DT_RELA", 1 },
	{ DT_JMPREL, DT_PLTRELSZ, 0, "DT_JMPREL", -1 },
};

static uint64_t dyn_val(const struct vk_elf *e, int64_t want, int *seen)
{
	int64_t tag;
	uint64_t val;

	*seen = 0;
	for (size_t i = 0; vk_elf_dyn(e, i, &tag, &val) == 0; i++) {
		if (tag == want) {
			*seen = 1;
			return val;
		}
	}
	return 0;
}

/* The relocations of one table that are not R_*_NONE; -1 if unreadable. */
static long count_relocs(const struct vk_elf *e, const struct reltab *t, uint64_t *first)
{
	size_t w = e->is64 ? 8 : 4, off;
	int seen, rela = t->rela;
	uint64_t addr = dyn_val(e, t->addr_tag, &seen), size, ent;
	long n = 0;

	if (!seen)
		return 0;
	size = dyn_val(e, t->size_tag, &seen);
	if (rela < 0)
		rela = dyn_val(e, DT_PLTREL, &seen) == DT_RELA;
	ent = (rela ? 3 : 2) * w;
	if (size && vk_elf_vaddr_off(e, addr, size, &off))
		return -1;
	for (uint64_t i = 0; i + ent <= size; i += ent) {
		uint64_t info = e->is64 ? vk_elf_u64(e, off + i + w) : vk_elf_u32(e, off + i + w);
		uint64_t type = rel_type(e, info);

		if (type && !n++)
			*first = type;
	}
	return n;
}

static void check_relocs(const struct vk_elf *e, struct vk_inspect *out)
{
	char found[200] = "", item[80];
	uint64_t flags, first = 0;
	int seen;

	for (size_t i = 0; i < sizeof(reltabs) / sizeof(reltabs[0]); i++) {
		long n = count_relocs(e, &reltabs[i], &first);

		if (n < 0)
			snprintf(item, sizeof(item), "%s outside the image", reltabs[i].name);
		else
			snprintf(item, sizeof(item), "%ld in %s (the first of type %llu)", n,
				 reltabs[i].name, (unsigned long long)first);
		if (n)
			append(found, sizeof(found), item);
	}
	if (dyn_val(e, DT_RELRSZ, &seen) && seen)
		append(found, sizeof(found), "relative relocations in DT_RELR");
	if (dyn_val(e, DT_TEXTREL, &seen), seen)
		append(found, sizeof(found), "DT_TEXTREL");
	flags = dyn_val(e, DT_FLAGS, &seen);
	if (seen && (flags & DF_TEXTREL))
		append(found, sizeof(found), "DF_TEXTREL");
	if (found[0])
		set(out, VK_CHK_RELOCS, VK_INSP_FAIL, "%s: the kernel maps the vDSO unrelocated",
		    found);
	else
		set(out, VK_CHK_RELOCS, VK_INSP_PASS, "none but R_*_NONE, no TEXTREL");
}

static void check_undef(const struct vk_elf *e, struct vk_inspect *out)
{
	char found[200] = "";
	struct vk_elf_sym s;
	size_t n = 0;

	for (size_t i = 1; i < e->nsyms; i++) {
		if (vk_elf_sym(e, i, &s) || s.shndx != SHN_UNDEF || !s.name[0])
			continue;
		if (!n++)
			append(found, sizeof(found), s.name);
	}
	if (n)
		set(out, VK_CHK_UNDEF, VK_INSP_FAIL, "%zu undefined, %s first: no loader resolves them",
		    n, found);
	else
		set(out, VK_CHK_UNDEF, VK_INSP_PASS, "every symbol is defined in the image");
}

static void check_segments(const struct vk_elf *e, struct vk_inspect *out)
{
	struct vk_elf_phdr p;
	int stack = -1;
	size_t wx = 0;
	uint64_t at = 0;

	for (size_t i = 0; vk_elf_phdr(e, i, &p) == 0; i++) {
		if (p.type == PT_LOAD && (p.flags & PF_W) && (p.flags & PF_X) && !wx++)
			at = p.vaddr;
		if (p.type == PT_GNU_STACK)
			stack = !!(p.flags & PF_X);
	}
	if (wx)
		set(out, VK_CHK_WX, VK_INSP_FAIL, "%zu PT_LOAD both writable and executable, the first at %#llx",
		    wx, (unsigned long long)at);
	else
		set(out, VK_CHK_WX, VK_INSP_PASS, "no PT_LOAD is both writable and executable");
	if (stack < 0)
		set(out, VK_CHK_STACK_EXEC, VK_INSP_SKIP, "the image has no PT_GNU_STACK");
	else if (stack)
		set(out, VK_CHK_STACK_EXEC, VK_INSP_FAIL, "PT_GNU_STACK is executable");
	else
		set(out, VK_CHK_STACK_EXEC, VK_INSP_PASS, "PT_GNU_STACK is not executable");
}

static int promised(const struct vk_insp_unwind *u, const char *name)
{
	if (u->fdes)
		return 1;
	for (size_t i = 0; i < sizeof(u->promised) / sizeof(u->promised[0]) && u->promised[i]; i++) {
		if (!strcmp(u->promised[i], name))
			return 1;
	}
	return 0;
}

static void check_fdes(const struct vk_elf *e, const struct vk_insp_arch *row,
		       struct vk_inspect *out)
{
	const struct vk_insp_unwind *u = &row->unwind;
	char missing[160] = "", unpromised[160] = "";
	size_t nmiss = 0, nun = 0, checked = 0;
	struct vk_insp_fdes f;

	vk_insp_fdes(e, &f);
	if (f.err[0]) {
		set(out, VK_CHK_FDES, VK_INSP_FAIL, "%s: %s", f.where, f.err);
		return;
	}
	for (size_t i = 0; i < out->nfuncs; i++) {
		const struct vk_insp_func *fn = &out->funcs[i];

		if (vk_insp_fde_covers(&f, fn->addr, fn->size))
			continue;
		if (promised(u, fn->name)) {
			if (!nmiss++)
				append(missing, sizeof(missing), fn->name);
		} else if (!nun++) {
			append(unpromised, sizeof(unpromised), fn->name);
		}
	}
	for (size_t i = 0; i < out->nfuncs; i++)
		checked += promised(u, out->funcs[i].name);
	if (nmiss)
		set(out, VK_CHK_FDES, VK_INSP_FAIL, "%zu exported functions without an FDE (%s first)%s%s",
		    nmiss, missing, f.found ? "" : ": ", f.found || !f.none ? "" : f.none);
	else if (!checked)
		set(out, VK_CHK_FDES, VK_INSP_SKIP, "%s", u->why);
	else if (nun)
		set(out, VK_CHK_FDES, VK_INSP_PASS, "%zu FDEs; %zu functions without one (%s first), as %s",
		    f.n, nun, unpromised, u->why);
	else
		set(out, VK_CHK_FDES, VK_INSP_PASS, "%zu FDEs cover the %zu exported functions", f.n,
		    out->nfuncs);
}

static void check_hdr(const struct vk_elf *e, const struct vk_insp_arch *row,
		      struct vk_inspect *out)
{
	struct vk_elf_phdr p;
	int empty = 0;

	/* An empty one (mips links --eh-frame-hdr with no .eh_frame) is none:
	 * version, encodings and the frame's pointer take 8 bytes. */
	for (size_t i = 0; vk_elf_phdr(e, i, &p) == 0; i++) {
		if (p.type == PT_GNU_EH_FRAME && p.filesz >= 8) {
			set(out, VK_CHK_EH_FRAME_HDR, VK_INSP_PASS, "PT_GNU_EH_FRAME at %#llx",
			    (unsigned long long)p.vaddr);
			return;
		}
		empty |= p.type == PT_GNU_EH_FRAME;
	}
	if (row->unwind.hdr && empty)
		set(out, VK_CHK_EH_FRAME_HDR, VK_INSP_FAIL,
		    "PT_GNU_EH_FRAME is empty (linked without --eh-frame-hdr): an unwinder that "
		    "finds FDEs through it finds none");
	else if (row->unwind.hdr)
		set(out, VK_CHK_EH_FRAME_HDR, VK_INSP_FAIL,
		    "no PT_GNU_EH_FRAME: an unwinder finds no FDE in the vDSO");
	else
		set(out, VK_CHK_EH_FRAME_HDR, VK_INSP_SKIP, "%s", row->unwind.why);
}

/* Why the row lets f call its caller's function, or NULL. */
static const char *calls_back(const struct vk_insp_arch *row, const char *f)
{
	for (size_t i = 0; i < sizeof(row->calls_back) / sizeof(row->calls_back[0]); i++) {
		if (row->calls_back[i].name && !strcmp(row->calls_back[i].name, f))
			return row->calls_back[i].why;
	}
	return NULL;
}

/* The functions with a site of kind k, "f (retpoline at 0x1030)", but
 * those whose ABI makes them call back (into noted). */
static size_t with_kind(const struct vk_inspect *out, const struct vk_insp_arch *row,
			enum vk_insp_kind k, char *buf, size_t len, char *noted, size_t nlen)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < out->nfuncs; i++) {
		const struct vk_insp_func *f = &out->funcs[i];
		const char *why = k == VK_INSP_INDIRECT ? calls_back(row, f->name) : NULL;
		char item[128];

		if (!f->count[k])
			continue;
		if (why) {
			snprintf(noted, nlen, "; by its ABI, %s %s", f->name, why);
			continue;
		}
		n += f->count[k];
		snprintf(item, sizeof(item), "%s (%s at %#llx)", f->name,
			 f->site[k][0].what[0] ? f->site[k][0].what : f->site[k][0].text,
			 (unsigned long long)f->site[k][0].addr);
		append(buf, len, item);
	}
	return n;
}

static void check_code(const struct vk_insp_arch *row, struct vk_inspect *out)
{
	char found[200], noted[160] = "";
	size_t n;

	if ((n = with_kind(out, row, VK_INSP_INDIRECT, found, sizeof(found), noted, sizeof(noted))))
		set(out, VK_CHK_INDIRECT, VK_INSP_FAIL, "%zu: %s%s", n, found, noted);
	else
		set(out, VK_CHK_INDIRECT, VK_INSP_PASS, "none in %zu functions%s", out->nfuncs, noted);
	if ((n = with_kind(out, row, VK_INSP_PROBE, found, sizeof(found), noted, sizeof(noted))))
		set(out, VK_CHK_PROBES, VK_INSP_FAIL, "%zu: %s", n, found);
	else
		set(out, VK_CHK_PROBES, VK_INSP_PASS, "none in %zu functions", out->nfuncs);
}

/* The feature bits of the arch's GNU_PROPERTY_*_FEATURE_1_AND; 0 if none. */
static unsigned features(const struct vk_elf *e, const struct vk_insp_arch *row)
{
	size_t align = e->is64 ? 8 : 4;
	struct vk_elf_note n;

	if (!row->property || vk_elf_find_note(e, "GNU", NT_GNU_PROPERTY_TYPE_0, &n))
		return 0;
	for (size_t o = 0; n.descsz - o >= 8;) {
		uint32_t type, size;

		memcpy(&type, n.desc + o, 4);
		memcpy(&size, n.desc + o + 4, 4);
		if (e->swap) {
			type = __builtin_bswap32(type);
			size = __builtin_bswap32(size);
		}
		if (size > n.descsz - o - 8)
			return 0;
		if (type == row->property && size >= 4) {
			uint32_t bits;

			memcpy(&bits, n.desc + o + 8, 4);
			return e->swap ? __builtin_bswap32(bits) : bits;
		}
		o += 8 + ((size + align - 1) & ~(align - 1));
		if (o > n.descsz)
			return 0;
	}
	return 0;
}

static void check_property(const struct vk_elf *e, const struct vk_insp_arch *row,
			   struct vk_inspect *out)
{
	unsigned bits = features(e, row);
	char claimed[64] = "", bad[160] = "";
	size_t nbad = 0;

	for (size_t k = 0; k < 2; k++) {
		const struct vk_insp_pat *pad = row->feature[k].pad;

		if (!row->feature[k].name || !(bits & row->feature[k].bit))
			continue;
		append(claimed, sizeof(claimed), row->feature[k].name);
		if (!pad[0].mnem)
			continue;
		for (size_t i = 0; i < out->nfuncs; i++) {
			const struct vk_insp_func *f = &out->funcs[i];

			if (!vk_insp_match(pad, f->first_mnem, f->first_ops) && !nbad++)
				snprintf(bad, sizeof(bad), "%s begins with %s, no %s landing pad",
					 f->name, f->first_mnem, row->feature[k].name);
		}
	}
	if (!claimed[0])
		set(out, VK_CHK_PROPERTY, VK_INSP_SKIP, "the image claims no %s",
		    row->property ? "GNU_PROPERTY feature" : "feature this arch has a property for");
	else if (nbad)
		set(out, VK_CHK_PROPERTY, VK_INSP_FAIL, "claims %s, but %zu functions lack its pad: %s",
		    claimed, nbad, bad);
	else
		set(out, VK_CHK_PROPERTY, VK_INSP_PASS, "claims %s; every function keeps it", claimed);
}

void vk_insp_checks(const struct vk_elf *e, const struct vk_insp_arch *row,
		    struct vk_inspect *out)
{
	check_relocs(e, out);
	check_undef(e, out);
	check_segments(e, out);
	check_fdes(e, row, out);
	check_hdr(e, row, out);
	check_code(row, out);
	check_property(e, row, out);
}
