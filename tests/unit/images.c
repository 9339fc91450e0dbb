// SPDX-License-Identifier: MIT
/*
 * The ELF reader against the vDSO-like images of tests/images/build.sh.
 * For each image of the manifest given as argv[1]: it opens as the ABI,
 * class and byte order expected, takes its symbols from the expected
 * table, and finds every expected symbol at its version through every
 * table it has; a wrong version, a missing name, or a hidden symbol asked
 * for without a version is not found.
 *
 * Usage: images MANIFEST (its format is described at its top).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/base/array.h"
#include "core/image/image.h"
#include "tests/unit/test.h"

/* From <elf.h>, which this test does not include. */
#ifndef VER_FLG_BASE
#define VER_FLG_BASE 0x1
#endif

#define MAX_SYMS 64
#define MAX_VERSIONS 8

struct want_sym {
	const char *name;
	const char *version;
	int hidden;
};

/* One manifest line; the strings point into the line. */
struct want {
	const char *label;
	const char *abi;
	const char *bits;
	const char *order;
	const char *symsrc;
	const char *tables;
	struct want_sym syms[MAX_SYMS];
	size_t nsyms;
	const char *versions[MAX_VERSIONS];
	size_t nversions;
};

/* The first of a check's failures, and how many there were. */
struct fails {
	int n;
	char first[240];
};

static void fail(struct fails *f, const char *fmt, ...)
{
	va_list ap;

	if (f->n++)
		return;
	va_start(ap, fmt);
	vsnprintf(f->first, sizeof(f->first), fmt, ap);
	va_end(ap);
}

static void show(const struct fails *f)
{
	if (f->n)
		printf("#   %s%s\n", f->first, f->n > 1 ? " (and more)" : "");
}

/* The tables to look symbols up through; a linear scan always works. */
static size_t srcs_of(const struct vk_elf *e, enum vk_elf_symsrc srcs[3])
{
	size_t n = 0;

	if (e->gnu_hash.size)
		srcs[n++] = VK_SYMSRC_GNU_HASH;
	if (e->hash.size)
		srcs[n++] = VK_SYMSRC_HASH;
	srcs[n++] = VK_SYMSRC_SECTIONS;
	return n;
}

static int parse_sym(struct want *w, char *tok)
{
	struct want_sym *s = &w->syms[w->nsyms];
	char *at = strchr(tok, '@');
	size_t v;

	if (!at || w->nsyms == MAX_SYMS)
		return -1;
	*at++ = '\0';
	s->hidden = *at != '@';
	s->name = tok;
	s->version = s->hidden ? at : at + 1;
	w->nsyms++;
	for (v = 0; v < w->nversions; v++) {
		if (strcmp(w->versions[v], s->version) == 0)
			return 0;
	}
	if (v == MAX_VERSIONS)
		return -1;
	w->versions[w->nversions++] = s->version;
	return 0;
}

/* The manifest's names of the symbol sources. */
static const char *const symsrc_names[] = {
	[VK_SYMSRC_GNU_HASH] = "DT_GNU_HASH",
	[VK_SYMSRC_HASH] = "DT_HASH",
	[VK_SYMSRC_SECTIONS] = "sections",
};

static int symsrc_of(const char *name)
{
	for (int i = 0; i < 3; i++) {
		if (strcmp(name, symsrc_names[i]) == 0)
			return i;
	}
	return -1;
}

/* Split a manifest line into w; -1 if it is malformed. */
static int parse_line(struct want *w, char *line)
{
	const char **fields[] = { &w->label, &w->abi, &w->bits, &w->order, &w->symsrc,
				  &w->tables };
	char *save, *tok = strtok_r(line, " \t\n", &save);

	memset(w, 0, sizeof(*w));
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
		if (!tok)
			return -1;
		*fields[i] = tok;
		tok = strtok_r(NULL, " \t\n", &save);
	}
	for (; tok; tok = strtok_r(NULL, " \t\n", &save)) {
		if (parse_sym(w, tok))
			return -1;
	}
	if (symsrc_of(w->symsrc) < 0 || (strcmp(w->bits, "32") && strcmp(w->bits, "64")) ||
	    (strcmp(w->order, "little") && strcmp(w->order, "big")))
		return -1;
	return w->nsyms ? 0 : -1;
}

static const struct want_sym *find_want(const struct want *w, const char *name,
					const char *version, int hidden)
{
	for (size_t i = 0; i < w->nsyms; i++) {
		const struct want_sym *s = &w->syms[i];

		if (strcmp(s->name, name) == 0 && (!version || strcmp(s->version, version) == 0) &&
		    (hidden < 0 || s->hidden == hidden))
			return s;
	}
	return NULL;
}

/* The image's tables as the manifest names them: "DT_HASH,shdrs" or "-". */
static void tables_of(const struct vk_elf *e, char *buf, size_t len)
{
	static const char *const names[] = { "DT_GNU_HASH", "DT_HASH", "shdrs" };
	int has[] = { e->gnu_hash.size != 0, e->hash.size != 0, e->shnum != 0 };
	size_t n = 0;

	snprintf(buf, len, "-");
	for (size_t i = 0; i < 3 && n < len; i++) {
		if (has[i])
			n += snprintf(buf + n, len - n, "%s%s", n ? "," : "", names[i]);
	}
}


/*
 * A lookup of w at its version, through one table or (src NULL) the way
 * vk_elf_lookup() chooses: the right symbol, with the right flags.
 */
static void expect_found(const struct vk_elf *e, const enum vk_elf_symsrc *src,
			 const struct want_sym *w, struct fails *f)
{
	struct vk_elf_sym s;
	int err = src ? vk_elf_lookup_in(e, *src, w->name, w->version, &s) :
			vk_elf_lookup(e, w->name, w->version, &s);
	const char *how = src ? vk_elf_symsrc_name(*src) : "vk_elf_lookup";

	if (err)
		fail(f, "%s@%s not found through %s", w->name, w->version, how);
	else if (strcmp(s.name, w->name) != 0 || !s.version || strcmp(s.version, w->version) != 0)
		fail(f, "%s@%s through %s found %s@%s", w->name, w->version, how, s.name,
		     s.version ? s.version : "(none)");
	else if (s.hidden != w->hidden)
		fail(f, "%s@%s through %s is %shidden", w->name, w->version, how,
		     s.hidden ? "" : "not ");
}

static void expect_missing(const struct vk_elf *e, const char *name, const char *version,
			   struct fails *f)
{
	enum vk_elf_symsrc srcs[3];
	size_t n = srcs_of(e, srcs);
	struct vk_elf_sym s;

	for (size_t k = 0; k < n; k++) {
		if (vk_elf_lookup_in(e, srcs[k], name, version, &s) == 0)
			fail(f, "%s@%s found through %s (as %s@%s, index %zu)", name,
			     version ? version : "(any)", vk_elf_symsrc_name(srcs[k]), s.name,
			     s.version ? s.version : "(none)", s.index);
	}
}

/* Every symbol at its version, default ones (hidden 0) or hidden ones. */
static void check_found(const struct vk_elf *e, const struct want *w, int hidden)
{
	enum vk_elf_symsrc srcs[3];
	size_t nsrcs = srcs_of(e, srcs), n = 0;
	struct fails f = { 0 };

	for (size_t i = 0; i < w->nsyms; i++) {
		if (w->syms[i].hidden != hidden)
			continue;
		n++;
		expect_found(e, NULL, &w->syms[i], &f);
		for (size_t k = 0; k < nsrcs; k++)
			expect_found(e, &srcs[k], &w->syms[i], &f);
	}
	CHECK(n && !f.n, "%s: %zu %s symbols found at their version through every table",
	      w->label, n, hidden ? "hidden" : "default-version");
	show(&f);
}

/* Without a version, a name is found at its default version or not at all. */
static void check_unversioned(const struct vk_elf *e, const struct want *w)
{
	enum vk_elf_symsrc srcs[3];
	size_t nsrcs = srcs_of(e, srcs);
	struct fails f = { 0 };
	struct vk_elf_sym s;

	for (size_t i = 0; i < w->nsyms; i++) {
		const struct want_sym *def = find_want(w, w->syms[i].name, NULL, 0);

		if (!def) {
			expect_missing(e, w->syms[i].name, NULL, &f);
			continue;
		}
		for (size_t k = 0; k < nsrcs; k++) {
			if (vk_elf_lookup_in(e, srcs[k], def->name, NULL, &s) || s.hidden ||
			    !s.version || strcmp(s.version, def->version) != 0)
				fail(&f, "%s without a version through %s is not %s@@%s",
				     def->name, vk_elf_symsrc_name(srcs[k]), def->name, def->version);
		}
	}
	CHECK(!f.n, "%s: lookups without a version find the default one, never a hidden one",
	      w->label);
	show(&f);
}

/* No name is found at a version it does not have, or at one that is not. */
static void check_wrong_versions(const struct vk_elf *e, const struct want *w)
{
	static const char *const bogus[] = { "LINUX_0.0", "linux-vdso.so.1", "" };
	struct fails f = { 0 };

	for (size_t i = 0; i < w->nsyms; i++) {
		const char *name = w->syms[i].name;

		for (size_t v = 0; v < w->nversions; v++) {
			if (!find_want(w, name, w->versions[v], -1))
				expect_missing(e, name, w->versions[v], &f);
		}
		for (size_t v = 0; v < ARRAY_SIZE(bogus); v++)
			expect_missing(e, name, bogus[v], &f);
	}
	CHECK(!f.n, "%s: no symbol is found at a version it does not have", w->label);
	show(&f);
}

/* Names near the real ones, which a sloppy comparison would take. */
static void check_missing_names(const struct vk_elf *e, const struct want *w)
{
	struct fails f = { 0 };
	char name[128];

	expect_missing(e, "", NULL, &f);
	expect_missing(e, "__vdso_no_such_function", NULL, &f);
	expect_missing(e, "__kernel_no_such_function", NULL, &f);
	for (size_t i = 0; i < w->nsyms; i++) {
		const struct want_sym *s = &w->syms[i];

		snprintf(name, sizeof(name), "%sx", s->name);
		if (!find_want(w, name, NULL, -1))
			expect_missing(e, name, s->version, &f);
		snprintf(name, sizeof(name), "%.*s", (int)strlen(s->name) - 1, s->name);
		if (!find_want(w, name, NULL, -1))
			expect_missing(e, name, s->version, &f);
	}
	CHECK(!f.n, "%s: names the image does not export are not found", w->label);
	show(&f);
}

/* The image defines exactly the base version and the expected ones. */
static void check_verdefs(const struct vk_elf *e, const struct want *w)
{
	struct vk_elf_verdef v;
	struct fails f = { 0 };
	size_t n = 0;

	for (size_t i = 0; vk_elf_verdef(e, i, &v) == 0; i++) {
		int base = !!(v.flags & VER_FLG_BASE);
		size_t j;

		for (j = 0; !base && j < w->nversions; j++) {
			if (v.name && strcmp(v.name, w->versions[j]) == 0)
				break;
		}
		if (base ? !v.name || strcmp(v.name, "linux-vdso.so.1") != 0 : j == w->nversions)
			fail(&f, "unexpected version definition %s", v.name ? v.name : "(bad)");
		n++;
	}
	if (n != w->nversions + 1)
		fail(&f, "%zu version definitions, expected %zu", n, w->nversions + 1);
	CHECK(!f.n, "%s: defines the versions linux-vdso.so.1 (base) and %zu others", w->label,
	      w->nversions);
	show(&f);
}

/* vk_image_func finds each function the ABI exports, and no other. */
static void check_funcs(const struct vk_image *im, const struct want *w)
{
	struct vk_image_func fn;
	struct fails f = { 0 };

	for (int i = 0; i < VK_NFUNCS; i++) {
		int applies = !!(im->arch->funcs & VK_FN_BIT(i));
		int err = vk_image_func(im, i, &fn);

		if (!applies) {
			if (!err || fn.found)
				fail(&f, "%s is found, but %s does not export it", fn.want,
				     im->arch->name);
			continue;
		}
		if (err || !fn.found || fn.sym.hidden || !fn.sym.version ||
		    strcmp(fn.sym.version, im->arch->version) != 0)
			fail(&f, "%s@@%s is not found", fn.want, im->arch->version);
		else if (!find_want(w, fn.want, im->arch->version, 0))
			fail(&f, "%s is found, but the manifest does not list it", fn.want);
	}
	CHECK(!f.n, "%s: vk_image_func finds the functions %s exports, and no others", w->label,
	      im->arch->name);
	show(&f);
}

static void check_header(const struct vk_image *im, const struct want *w)
{
	const struct vk_elf *e = &im->elf;
	char tables[64];

	CHECK(im->arch && strcmp(im->arch->name, w->abi) == 0, "%s: ABI is %s (got %s)",
	      w->label, w->abi, im->arch ? im->arch->name : "none");
	CHECK(strcmp(w->bits, e->is64 ? "64" : "32") == 0 &&
	      strcmp(w->order, e->big_endian ? "big" : "little") == 0,
	      "%s: ELF%s %s-endian (got ELF%d %s-endian)", w->label, w->bits, w->order,
	      e->is64 ? 64 : 32, e->big_endian ? "big" : "little");
	CHECK(e->soname && strcmp(e->soname, "linux-vdso.so.1") == 0,
	      "%s: soname is linux-vdso.so.1", w->label);
	CHECK((int)e->symsrc == symsrc_of(w->symsrc), "%s: symbols come from %s (got %s)",
	      w->label, vk_elf_symsrc_name(symsrc_of(w->symsrc)), vk_elf_symsrc_name(e->symsrc));
	tables_of(e, tables, sizeof(tables));
	CHECK(strcmp(tables, w->tables) == 0, "%s: tables present are %s (got %s)", w->label,
	      w->tables, tables);
	CHECK(!e->warn[0], "%s: opens without a warning%s%s", w->label, e->warn[0] ? ": " : "",
	      e->warn);
}

static void check_image(const char *dir, struct want *w)
{
	struct vk_image im;
	char path[4096], msg[256] = "";
	int err;

	snprintf(path, sizeof(path), "%s%s", w->label[0] == '/' ? "" : dir, w->label);
	err = vk_image_open_file(&im, path);
	CHECK(err == 0, "%s: opens", w->label);
	if (err) {
		printf("#   %s\n", im.err);
		vk_image_close(&im);
		return;
	}
	check_header(&im, w);
	CHECK(vk_elf_check_hashes(&im.elf, msg, sizeof(msg)) == 0,
	      "%s: every symbol is found through every hash table%s%s", w->label,
	      msg[0] ? ": " : "", msg);
	check_verdefs(&im.elf, w);
	check_found(&im.elf, w, 0);
	check_found(&im.elf, w, 1);
	check_unversioned(&im.elf, w);
	check_wrong_versions(&im.elf, w);
	check_missing_names(&im.elf, w);
	if (im.arch)
		check_funcs(&im, w);
	vk_image_close(&im);
}

int main(int argc, char **argv)
{
	char dir[4096], line[8192];
	struct want w;
	int lineno = 0, images = 0;
	const char *slash;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MANIFEST\n", argv[0]);
		return 2;
	}
	slash = strrchr(argv[1], '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - argv[1] + 1) : 0, argv[1]);
	f = fopen(argv[1], "r");
	CHECK(f, "the manifest %s can be read", argv[1]);
	while (f && fgets(line, sizeof(line), f)) {
		lineno++;
		if (line[0] == '#' || strspn(line, " \t\n") == strlen(line))
			continue;
		if (parse_line(&w, line)) {
			CHECK(0, "manifest line %d is well formed", lineno);
			continue;
		}
		check_image(dir, &w);
		images++;
	}
	CHECK(images > 0, "the manifest lists %d images", images);
	if (f)
		fclose(f);
	return test_exit();
}
