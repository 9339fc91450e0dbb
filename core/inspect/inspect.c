// SPDX-License-Identifier: MIT
/*
 * inspect's reading of each exported function: the disassembler's text of
 * every instruction, matched against the arch's row (insp_arch.c).
 */
#include <ctype.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/inspect/insp_arch.h"
#include "core/inspect/insp_checks.h"
#include "core/inspect/insp_llvm.h"
#include "core/inspect/inspect.h"

/* The disassembler and the branch target of the instruction it read last. */
struct dis {
	LLVMDisasmContextRef ctx;
	LLVMDisasmContextRef first, thumb;	/* the triple's, and arm's Thumb one: ctx is one */
	const struct vk_insp_arch *row;
	const struct vk_elf *elf;
	uint64_t target;
	int has_target;
};

/* LLVM's symbolizer hands each branch's target here; none is named. */
static const char *lookup(void *info, uint64_t value, uint64_t *type, uint64_t pc,
			  const char **name)
{
	struct dis *d = info;

	(void)pc;
	if (*type == LLVMDisassembler_ReferenceType_In_Branch) {
		d->target = value;
		d->has_target = 1;
	}
	*type = LLVMDisassembler_ReferenceType_InOut_None;
	*name = NULL;
	return NULL;
}

/* One decoded instruction: its length (0: undecodable), mnemonic, operands. */
struct insn {
	size_t len;
	char text[96];
	char mnem[24];
	const char *ops;
	uint64_t target;
	int has_target;
};

static void split(const struct vk_insp_arch *row, struct insn *in)
{
	const char *p = in->text;
	size_t n;

	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		n = strcspn(p, " \t");
		snprintf(in->mnem, sizeof(in->mnem), "%.*s", (int)n, p);
		p += n;
		while (isspace((unsigned char)*p))
			p++;
		in->ops = p;
		if (!*p)
			return;
		/* x86's prefixes print as words of their own. */
		size_t i = 0;

		while (i < sizeof(row->prefix) / sizeof(row->prefix[0]) && row->prefix[i] &&
		       strcmp(row->prefix[i], in->mnem))
			i++;
		if (i == sizeof(row->prefix) / sizeof(row->prefix[0]) || !row->prefix[i])
			return;
	}
}

static int decode(struct dis *d, const unsigned char *p, size_t avail, uint64_t addr,
		  struct insn *in)
{
	char *tab;

	d->has_target = 0;
	in->len = vk_llvm.instruction(d->ctx, (uint8_t *)p, avail, addr, in->text,
					sizeof(in->text));
	if (!in->len)
		return -1;
	while ((tab = strchr(in->text, '\t')))
		*tab = ' ';
	in->target = d->target;
	in->has_target = d->has_target;
	split(d->row, in);
	return 0;
}

/* The largest number in an instruction's operands: its stack adjustment,
 * whatever the arch's syntax ("$16", "#-32", "-112(1)"); registers such
 * as x29 or %r15 are not numbers. */
static long long largest_number(const char *ops, int *negative)
{
	long long best = 0;

	*negative = 0;
	for (const char *p = ops; *p; p++) {
		const char *q = p;
		int neg = 0;
		long long v;
		char *end;

		if (p > ops && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.'))
			continue;
		if (*q == '-') {
			neg = 1;
			q++;
		}
		if (!isdigit((unsigned char)*q))
			continue;
		v = strtoll(q, &end, 0);
		if (isalpha((unsigned char)*end) || *end == '_')
			continue;
		if (v > best) {
			best = v;
			*negative = neg;
		}
		p = end - 1;
	}
	return best;
}

static void add_site(struct vk_insp_func *f, enum vk_insp_kind k, uint64_t addr,
		     const struct insn *in, const char *what)
{
	size_t i = f->count[k]++;

	if (i >= VK_INSP_SITES)
		return;
	f->site[k][i].addr = addr;
	snprintf(f->site[k][i].text, sizeof(f->site[k][i].text), "%s%s%s", in->mnem,
		 *in->ops ? " " : "", in->ops);
	snprintf(f->site[k][i].what, sizeof(f->site[k][i].what), "%s", what ? what : "");
}

/* Barriers and counter reads by name in order of first use, as "isb x2". */
struct fence_tally {
	char name[8][24];
	unsigned n[8];
	size_t used;
};

static void tally(struct fence_tally *t, const struct vk_insp_pat *p)
{
	char name[24];
	size_t i;

	snprintf(name, sizeof(name), "%s%s%s", p->mnem, p->has ? " " : "", p->has ? p->has : "");
	for (i = 0; i < t->used && strcmp(t->name[i], name); i++)
		;
	if (i == t->used) {
		if (t->used == 8)
			return;
		snprintf(t->name[t->used++], sizeof(t->name[0]), "%s", name);
	}
	t->n[i]++;
}

static void fences(char *buf, size_t len, const struct fence_tally *t)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < t->used && o < len; i++) {
		int w = snprintf(buf + o, len - o, "%s%s", i ? ", " : "", t->name[i]);

		if (w > 0 && t->n[i] > 1 && (size_t)w < len - o)
			w += snprintf(buf + o + w, len - o - w, " x%u", t->n[i]);
		o += w > 0 ? (size_t)w : 0;
	}
}

/* What the code at addr is, where a function calls or jumps to it: x86's
 * return thunk (a ret) or retpoline thunk (a call, then pause). */
static const char *thunk(struct dis *d, uint64_t addr)
{
	struct insn a, b;
	size_t off;

	if (vk_elf_vaddr_off(d->elf, addr, 1, &off))
		return NULL;
	if (decode(d, d->elf->base + off, d->elf->size - off, addr, &a))
		return NULL;
	if (vk_insp_match(d->row->ret, a.mnem, a.ops))
		return "return thunk";
	if (!d->row->retpoline[0] || off + a.len >= d->elf->size ||
	    decode(d, d->elf->base + off + a.len, d->elf->size - off - a.len, addr + a.len, &b))
		return NULL;
	return vk_insp_match(d->row->call, a.mnem, a.ops) && !strcmp(b.mnem, d->row->retpoline[0]) ?
		       "retpoline" : NULL;
}

/* The exported function named at addr, for a call's target. */
static void target_name(const struct vk_elf *e, uint64_t addr, char *buf, size_t len)
{
	struct vk_elf_sym s;

	for (size_t i = 1; i < e->nsyms; i++) {
		if (vk_elf_sym(e, i, &s) == 0 && s.shndx != SHN_UNDEF && s.value == addr &&
		    s.name[0]) {
			snprintf(buf, len, "%s", s.name);
			return;
		}
	}
	snprintf(buf, len, "no symbol names it");
}

static void one_insn(struct dis *d, struct vk_insp_func *f, uint64_t addr, const struct insn *in,
		     struct fence_tally *t, int *after_pause)
{
	const struct vk_insp_arch *row = d->row;
	const struct vk_insp_pat *p;
	char what[64];
	int neg;

	if (vk_insp_match(row->syscall, in->mnem, in->ops))
		add_site(f, VK_INSP_SYSCALL, addr, in, NULL);
	if ((p = vk_insp_match(row->barrier, in->mnem, in->ops))) {
		add_site(f, VK_INSP_BARRIER, addr, in, NULL);
		tally(t, p);
		/* An inline retpoline is pause, lfence: the speculation trap. */
		if (*after_pause && row->retpoline[1] && !strcmp(in->mnem, row->retpoline[1]))
			add_site(f, VK_INSP_INDIRECT, addr, in, "retpoline");
	}
	*after_pause = row->retpoline[0] && !strcmp(in->mnem, row->retpoline[0]);
	if ((p = vk_insp_match(row->counter, in->mnem, in->ops))) {
		add_site(f, VK_INSP_COUNTER, addr, in, NULL);
		tally(t, p);
	}
	if ((p = vk_insp_match(row->indirect, in->mnem, in->ops)))
		add_site(f, VK_INSP_INDIRECT, addr, in,
			 strpbrk(in->ops, "([") ? "memory" : p->what);
	if (vk_insp_match(row->probe, in->mnem, in->ops))
		add_site(f, VK_INSP_PROBE, addr, in, NULL);
	if ((p = vk_insp_match(row->frame, in->mnem, in->ops))) {
		long long n = largest_number(in->ops, &neg);

		if (neg == (p->what && *p->what == '-') && (uint64_t)n > f->frame)
			f->frame = n;
	}
	if (!vk_insp_match(row->indirect, in->mnem, in->ops) &&
	    vk_insp_match(row->call, in->mnem, in->ops) && in->has_target &&
	    (in->target < f->addr || in->target >= f->addr + f->size)) {
		const char *th = thunk(d, in->target);

		if (th) {
			add_site(f, VK_INSP_INDIRECT, addr, in, th);
			return;
		}
		target_name(d->elf, in->target, what, sizeof(what));
		add_site(f, VK_INSP_CALL, addr, in, what);
	}
}

static void read_func(struct dis *d, struct vk_insp_func *f, size_t off)
{
	const unsigned char *code = d->elf->base + off;
	struct fence_tally t = { 0 };
	int after_pause = 0;
	struct insn in;

	for (uint64_t i = 0; i < f->size;) {
		if (decode(d, code + i, f->size - i, f->addr + i, &in)) {
			f->undecoded++;
			i += d->row->step;
			continue;
		}
		if (!f->insns++) {
			snprintf(f->first_mnem, sizeof(f->first_mnem), "%s", in.mnem);
			snprintf(f->first_ops, sizeof(f->first_ops), "%s", in.ops);
		}
		one_insn(d, f, f->addr + i, &in, &t, &after_pause);
		i += in.len;
	}
	fences(f->fences, sizeof(f->fences), &t);
}

/* The PT_LOAD holding addr: where a function of size 0 ends. */
static uint64_t segment_end(const struct vk_elf *e, uint64_t addr)
{
	struct vk_elf_phdr p;

	for (size_t i = 0; vk_elf_phdr(e, i, &p) == 0; i++) {
		if (p.type == PT_LOAD && addr >= p.vaddr && addr - p.vaddr < p.filesz)
			return p.vaddr + p.filesz;
	}
	return addr;
}

/* Where a function whose symbol has no size ends: at the next symbol. */
static uint64_t guess_size(const struct vk_elf *e, uint64_t addr)
{
	uint64_t end = segment_end(e, addr);
	struct vk_elf_sym s;

	for (size_t i = 1; i < e->nsyms; i++) {
		if (vk_elf_sym(e, i, &s) == 0 && s.shndx != SHN_UNDEF && s.value > addr &&
		    s.value < end)
			end = s.value;
	}
	return end - addr;
}

static int is_function(const struct vk_elf_sym *s)
{
	return s->type == STT_FUNC && s->shndx != SHN_UNDEF && s->name[0] &&
	       s->offset != SIZE_MAX;
}

static void read_funcs(struct dis *d, struct vk_inspect *out)
{
	const struct vk_elf *e = d->elf;
	struct vk_elf_sym s;

	for (size_t i = 1; i < e->nsyms; i++) {
		struct vk_insp_func *f;
		size_t off;

		if (vk_elf_sym(e, i, &s) || !is_function(&s))
			continue;
		if (out->nfuncs == VK_INSP_MAX_FUNCS) {
			out->more_funcs++;
			continue;
		}
		f = &out->funcs[out->nfuncs++];
		snprintf(f->name, sizeof(f->name), "%s", s.name);
		snprintf(f->version, sizeof(f->version), "%s", s.version ? s.version : "");
		/* arm's Thumb functions are named at their address + 1. */
		d->ctx = d->thumb && (s.value & 1) ? d->thumb : d->first;
		if (d->thumb)
			s.value &= ~(uint64_t)1;
		f->addr = s.value;
		f->size = s.size;
		if (!f->size) {
			f->size = guess_size(e, s.value);
			f->size_guessed = 1;
		}
		/* Only the bytes the image has are read. */
		if (vk_elf_vaddr_off(e, f->addr, f->size, &off)) {
			f->size = segment_end(e, f->addr) - f->addr;
			if (vk_elf_vaddr_off(e, f->addr, f->size, &off))
				continue;
		}
		read_func(d, f, off);
	}
}

static LLVMDisasmContextRef disasm(const char *triple, const struct vk_insp_arch *row,
				   struct dis *d)
{
	if (!row->cpu)
		return vk_llvm.create(triple, d, 0, NULL, lookup);
	return vk_llvm.create_cpu(triple, row->cpu, row->features, d, 0, NULL, lookup);
}

int vk_inspect(const struct vk_image *im, struct vk_inspect *out)
{
	struct dis d = { .elf = &im->elf };

	memset(out, 0, sizeof(*out));
	out->source = im->source;
	out->arch = im->arch ? im->arch->name : "unknown";
	d.row = im->arch ? vk_insp_arch_find(im->arch->name, im->elf.big_endian) : NULL;
	if (!d.row) {
		snprintf(out->err, sizeof(out->err), "%s: inspect does not know the code of %s (%s)",
			 im->source, out->arch, vk_elf_machine_name(im->elf.machine));
		return -1;
	}
	out->triple = d.row->triple;
	if (vk_llvm_load(d.row->target, out->err, sizeof(out->err)))
		return -2;
	d.first = disasm(d.row->triple, d.row, &d);
	d.thumb = d.row->thumb ? disasm(d.row->thumb, d.row, &d) : NULL;
	out->funcs = calloc(VK_INSP_MAX_FUNCS, sizeof(*out->funcs));
	if (d.first && (d.thumb || !d.row->thumb) && out->funcs) {
		d.ctx = d.first;
		read_funcs(&d, out);
		vk_insp_checks(&im->elf, d.row, out);
	} else if (!out->funcs) {
		snprintf(out->err, sizeof(out->err), "out of memory");
	} else {
		snprintf(out->err, sizeof(out->err), "LLVM has no disassembler for %s",
			 d.first ? d.row->thumb : d.row->triple);
	}
	if (d.first)
		vk_llvm.dispose(d.first);
	if (d.thumb)
		vk_llvm.dispose(d.thumb);
	return out->err[0] ? -2 : 0;
}

void vk_inspect_free(struct vk_inspect *in)
{
	free(in->funcs);
	in->funcs = NULL;
}

static const struct vk_insp_func *find(const struct vk_inspect *in, const char *name, long *i)
{
	for (size_t k = 0; k < in->nfuncs; k++) {
		if (!strcmp(in->funcs[k].name, name)) {
			*i = (long)k;
			return &in->funcs[k];
		}
	}
	*i = -1;
	return NULL;
}

static int differs(const struct vk_insp_func *a, const struct vk_insp_func *b)
{
	return !a || !b || a->size != b->size || a->frame != b->frame ||
	       strcmp(a->fences, b->fences) ||
	       a->count[VK_INSP_INDIRECT] != b->count[VK_INSP_INDIRECT] ||
	       a->count[VK_INSP_SYSCALL] != b->count[VK_INSP_SYSCALL];
}

int vk_inspect_diff(const struct vk_inspect *a, const struct vk_inspect *b,
		    struct vk_insp_diff *d)
{
	memset(d, 0, sizeof(*d));
	d->rows = calloc(a->nfuncs + b->nfuncs + 1, sizeof(*d->rows));
	if (!d->rows)
		return -1;
	/* A's functions in A's order, then those only B has. */
	for (size_t i = 0; i < a->nfuncs + b->nfuncs; i++) {
		const struct vk_insp_func *fa, *fb;
		struct vk_insp_diff_row *r = &d->rows[d->n];
		const char *name = i < a->nfuncs ? a->funcs[i].name : b->funcs[i - a->nfuncs].name;
		long ia, ib;

		fa = find(a, name, &ia);
		if (i >= a->nfuncs && fa)
			continue;
		fb = find(b, name, &ib);
		*r = (struct vk_insp_diff_row){ name, ia, ib, differs(fa, fb) };
		d->changed += r->changed;
		d->n++;
	}
	return 0;
}

void vk_inspect_diff_free(struct vk_insp_diff *d)
{
	free(d->rows);
	d->rows = NULL;
}
