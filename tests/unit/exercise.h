/* SPDX-License-Identifier: MIT */
/*
 * Run an image through every reader of core/image/elf.h; shared by the
 * malformed-image test (tests/unit/malformed.c) and the fuzzer
 * (tests/fuzz/fuzz_elf.c). A read outside the buffer faults or trips a
 * sanitizer; a promise of elf.h that does not hold (a string or table
 * outside the buffer, a failure without a message) is returned as text.
 */
#ifndef VK_TEST_EXERCISE_H
#define VK_TEST_EXERCISE_H

#include <stdint.h>
#include <string.h>

#include "core/base/array.h"
#include "core/image/elf.h"

#define EX_NAMES 4

struct exercise {
	const unsigned char *buf;
	size_t size;
	const struct vk_elf *e;
	const char *broken;		/* the first promise found broken */
	const char *vname[EX_NAMES];	/* version names from the image */
	const char *sname[EX_NAMES];	/* symbol names from the image */
	const char *sver[EX_NAMES];	/* and their versions */
	size_t nv, ns;
	size_t sink;
};

/* Sinks what was read, so that no read is optimised away. */
static volatile size_t exercise_sink;

static void ex_break(struct exercise *x, const char *why)
{
	if (!x->broken)
		x->broken = why;
}

/* Whether [p, p + len) lies in the buffer; as integers, p may be anywhere. */
static int ex_in(const struct exercise *x, const void *p, size_t len)
{
	uintptr_t at = (uintptr_t)p, start = (uintptr_t)x->buf;

	return at >= start && at - start <= x->size && len <= x->size - (at - start);
}

/* A string that starts and ends inside the buffer; counts its length. */
static int ex_str(struct exercise *x, const char *s)
{
	if (!ex_in(x, s, 0) ||
	    !memchr(s, '\0', x->size - ((uintptr_t)s - (uintptr_t)x->buf)))
		return 0;
	x->sink += strlen(s);
	return 1;
}

static void ex_tables(struct exercise *x)
{
	const struct vk_elf *e = x->e;
	const struct vk_elf_table *t[] = {
		&e->dynamic, &e->symtab, &e->strtab, &e->hash,
		&e->gnu_hash, &e->versym, &e->verdef,
	};

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		if (t[i]->size && !ex_in(x, x->buf + t[i]->off, t[i]->size))
			ex_break(x, "a table of struct vk_elf lies outside the image");
	}
	if (e->soname && !ex_str(x, e->soname))
		ex_break(x, "the soname is not a string inside the image");
	x->sink += strlen(e->warn) + strlen(vk_elf_machine_name(e->machine)) +
		   strlen(vk_elf_symsrc_name(e->symsrc));
}

/* Every verdef, walked as the reporters do: until one fails. */
static void ex_verdefs(struct exercise *x)
{
	struct vk_elf_verdef v;

	for (size_t i = 0; vk_elf_verdef(x->e, i, &v) == 0; i++) {
		if (v.name && !ex_str(x, v.name)) {
			ex_break(x, "a version name is not a string inside the image");
			return;
		}
		x->sink += v.index + v.flags + v.hash;
		if (v.name && x->nv < EX_NAMES)
			x->vname[x->nv++] = v.name;
	}
}

/* Every symbol, and one past the end, which must fail. */
static void ex_syms(struct exercise *x)
{
	const struct vk_elf *e = x->e;
	struct vk_elf_sym s;

	for (size_t i = 0; i <= e->nsyms; i++) {
		if (vk_elf_sym(e, i, &s))
			continue;
		if (i == e->nsyms || s.index != i) {
			ex_break(x, "vk_elf_sym() answered for a bad index");
			return;
		}
		if (!ex_str(x, s.name) || (s.version && !ex_str(x, s.version))) {
			ex_break(x, "a symbol's name or version is not a string inside the image");
			return;
		}
		if (s.offset != SIZE_MAX && s.offset >= x->size) {
			ex_break(x, "a symbol's file offset lies outside the image");
			return;
		}
		x->sink += s.value + s.size + s.type + s.bind + s.shndx + s.hidden;
		/* Keep the first names and the last for the lookups. */
		if (x->ns == EX_NAMES && i + 1 == e->nsyms)
			x->ns--;
		if (x->ns < EX_NAMES) {
			x->sname[x->ns] = s.name;
			x->sver[x->ns++] = s.version;
		}
	}
}

/* Look name@version up through every table; check what is found. */
static void ex_lookup(struct exercise *x, const char *name, const char *ver)
{
	static const enum vk_elf_symsrc srcs[] = {
		VK_SYMSRC_GNU_HASH, VK_SYMSRC_HASH, VK_SYMSRC_SECTIONS,
	};
	struct vk_elf_sym s;

	for (size_t k = 0; k <= ARRAY_SIZE(srcs); k++) {
		int r = k < ARRAY_SIZE(srcs) ? vk_elf_lookup_in(x->e, srcs[k], name, ver, &s) :
			vk_elf_lookup(x->e, name, ver, &s);

		if (r)
			continue;
		/* An image without versions matches any version, as in ld.so. */
		if (!ex_str(x, s.name) || strcmp(s.name, name) ||
		    (ver && x->e->versym.size &&
		     (!s.version || !ex_str(x, s.version) || strcmp(s.version, ver)))) {
			ex_break(x, "a lookup found a symbol of another name or version");
			return;
		}
		x->sink += s.value;
	}
}

static void ex_lookups(struct exercise *x)
{
	static const char *const names[] = {
		"__vdso_clock_gettime", "__kernel_clock_gettime", "",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		ex_lookup(x, names[i], NULL);
		ex_lookup(x, names[i], "LINUX_2.6");
	}
	for (size_t i = 0; i < x->ns; i++) {
		ex_lookup(x, x->sname[i], NULL);
		ex_lookup(x, x->sname[i], x->sver[i]);
		for (size_t j = 0; j < x->nv; j++)
			ex_lookup(x, x->sname[i], x->vname[j]);
	}
	if (x->nv)
		ex_lookup(x, x->vname[0], x->vname[0]);
}

static void ex_note(struct exercise *x, const char *name, uint32_t type)
{
	struct vk_elf_note n;

	if (vk_elf_find_note(x->e, name, type, &n))
		return;
	if (!ex_str(x, n.name) || !ex_in(x, n.desc, n.descsz)) {
		ex_break(x, "a note's name or descriptor lies outside the image");
		return;
	}
	for (size_t i = 0; i < n.descsz; i++)
		x->sink += n.desc[i];
}

/*
 * Open [data, data + size) into *e and, if that works, call every accessor
 * of core/image/elf.h on it. Returns vk_elf_open()'s result; *broken is NULL,
 * or the promise of elf.h that did not hold.
 */
static int exercise_elf(const void *data, size_t size, struct vk_elf *e,
			const char **broken)
{
	struct exercise x = { .buf = data, .size = size, .e = e };
	char msg[256] = "";
	uint32_t code;
	int rc;

	x.sink += vk_elf_image_size(data, size, 4096);
	x.sink += vk_elf_image_size(data, size, 65536);
	rc = vk_elf_open(e, data, size);
	x.sink += strlen(vk_elf_strerror(rc));
	if (rc > 0 || rc < -VK_ELF_EVERSION)
		ex_break(&x, "vk_elf_open() returned an unknown error code");
	else if (rc && (!e->err[0] || !memchr(e->err, '\0', sizeof(e->err))))
		ex_break(&x, "vk_elf_open() failed without a message in err[]");
	if (rc == 0) {
		ex_tables(&x);
		ex_verdefs(&x);
		ex_syms(&x);
		ex_lookups(&x);
		ex_note(&x, "Linux", 0);
		ex_note(&x, "GNU", 3);
		if (vk_elf_linux_version(e, &code) == 0)
			x.sink += code;
		if (vk_elf_check_hashes(e, msg, sizeof(msg)) && !msg[0])
			ex_break(&x, "vk_elf_check_hashes() failed without a message");
		x.sink += strlen(msg);
	}
	exercise_sink = x.sink;
	*broken = x.broken;
	return rc;
}

#endif /* VK_TEST_EXERCISE_H */
