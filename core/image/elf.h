/* SPDX-License-Identifier: MIT */
/*
 * A hardened reader for vDSO images: ELF32 and ELF64, either byte order,
 * read through a (base, size) view. Every offset, count and string taken
 * from the image is checked against that view before it is used, so a
 * malformed image yields an error and a message, never a read outside it.
 */
#ifndef VK_ELF_H
#define VK_ELF_H

#include <stddef.h>
#include <stdint.h>

/* Error codes returned (negated) by vk_elf_open(); 0 is success. */
enum vk_elf_error {
	VK_ELF_OK,
	VK_ELF_ETRUNC,	/* a header or table lies past the end of the image */
	VK_ELF_EMAGIC,	/* not an ELF file */
	VK_ELF_ECLASS,	/* bad EI_CLASS, EI_DATA, version or entry size */
	VK_ELF_ETYPE,	/* not a shared object */
	VK_ELF_ELAYOUT, /* inconsistent program headers or dynamic section */
	VK_ELF_ESYMS,	/* no usable dynamic symbol table */
	VK_ELF_EVERSION, /* malformed symbol versioning */
};

/* Where the symbol count and lookups come from. */
enum vk_elf_symsrc {
	VK_SYMSRC_GNU_HASH,
	VK_SYMSRC_HASH,
	VK_SYMSRC_SECTIONS,
};

struct vk_elf_table {
	size_t off;	/* file offset of the table */
	size_t size;	/* bytes, already checked against the image */
};

struct vk_elf {
	const unsigned char *base;
	size_t size;
	int is64;
	int big_endian;
	int swap;		/* image byte order differs from the host's */
	uint16_t machine;
	uint16_t type;
	uint8_t osabi;
	uint32_t flags;
	uint64_t phoff;		/* program headers, checked to lie in the image */
	uint64_t shoff;		/* section headers, likewise; shnum 0 if not */
	uint16_t phnum;
	uint16_t shnum;
	uint16_t shstrndx;

	struct vk_elf_table dynamic;
	struct vk_elf_table symtab;
	struct vk_elf_table strtab;
	struct vk_elf_table hash;	/* DT_HASH, size 0 if absent or unusable */
	struct vk_elf_table gnu_hash;	/* DT_GNU_HASH, likewise */
	struct vk_elf_table versym;
	struct vk_elf_table verdef;
	size_t syment;
	size_t nsyms;
	size_t verdefnum;
	size_t hash_entsize;	/* 8 on s390x and alpha, 4 elsewhere */
	enum vk_elf_symsrc symsrc;
	const char *soname;	/* NULL if none */
	char err[160];		/* why vk_elf_open() failed */
	char warn[200];		/* a defect worked around while opening */
};

struct vk_elf_sym {
	const char *name;
	const char *version;	/* NULL if unversioned */
	uint64_t value;		/* st_value: a virtual address in the image */
	uint64_t size;
	size_t offset;		/* file offset of value, or SIZE_MAX if unmapped */
	unsigned char type;	/* STT_* */
	unsigned char bind;	/* STB_* */
	uint16_t shndx;
	int hidden;		/* version is not the default one */
	size_t index;		/* index in the dynamic symbol table */
};

struct vk_elf_verdef {
	const char *name;
	uint16_t index;
	uint16_t flags;
	uint32_t hash;
};

struct vk_elf_note {
	const char *name;	/* NUL-terminated inside the image */
	uint32_t type;
	const unsigned char *desc;
	size_t descsz;
};

int vk_elf_open(struct vk_elf *e, const void *base, size_t size);
const char *vk_elf_strerror(int error);

/*
 * Length of the file image whose headers start at base, for an image mapped
 * in memory whose length is not given: only the first `limit` bytes (one
 * page) are known to be readable, and the result never extends past the
 * pages that its PT_LOAD segments map. 0 if the headers are not valid.
 */
size_t vk_elf_image_size(const void *base, size_t limit, size_t pagesize);

int vk_elf_sym(const struct vk_elf *e, size_t index, struct vk_elf_sym *s);
int vk_elf_lookup(const struct vk_elf *e, const char *name,
		  const char *version, struct vk_elf_sym *s);
/* Look up through one table; VK_SYMSRC_SECTIONS scans every symbol. */
int vk_elf_lookup_in(const struct vk_elf *e, enum vk_elf_symsrc src,
		     const char *name, const char *version, struct vk_elf_sym *s);
/* Every exported symbol is found through every hash table present. */
int vk_elf_check_hashes(const struct vk_elf *e, char *msg, size_t len);
int vk_elf_verdef(const struct vk_elf *e, size_t i, struct vk_elf_verdef *v);
/*
 * How many defined FUNC symbols have no name. 32-bit arm's kernel blanks
 * the names of its vDSO's clock entries at boot when the device tree has
 * no usable architected timer (arch/arm/kernel/vdso.c: patch_vdso): the
 * symbols stay in place, nameless, so no libc finds them.
 */
int vk_elf_nulled(const struct vk_elf *e);
int vk_elf_find_note(const struct vk_elf *e, const char *name,
		     uint32_t type, struct vk_elf_note *n);

/* LINUX_VERSION_CODE from the "Linux" note the kernel puts in its vDSO. */
int vk_elf_linux_version(const struct vk_elf *e, uint32_t *code);

struct vk_elf_phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, filesz, memsz;
};

struct vk_elf_section {
	const char *name;
	uint32_t type;
	uint64_t addr, offset, size;	/* its bytes lie in the image */
};

/* Program header i < phnum. */
int vk_elf_phdr(const struct vk_elf *e, size_t i, struct vk_elf_phdr *p);
/* The section named name, its bytes checked to lie in the image; -1 if none. */
int vk_elf_section(const struct vk_elf *e, const char *name, struct vk_elf_section *s);
/* The dynamic section's entry i; -1 at DT_NULL or its end. */
int vk_elf_dyn(const struct vk_elf *e, size_t i, int64_t *tag, uint64_t *val);
/* The file offset of len bytes at vaddr, all in one PT_LOAD's file part; -1 if not. */
int vk_elf_vaddr_off(const struct vk_elf *e, uint64_t vaddr, uint64_t len, size_t *off);
/* A word of the image in its byte order; the caller checked off. */
uint16_t vk_elf_u16(const struct vk_elf *e, size_t off);
uint32_t vk_elf_u32(const struct vk_elf *e, size_t off);
uint64_t vk_elf_u64(const struct vk_elf *e, size_t off);

uint32_t vk_elf_hash(const char *name);
uint32_t vk_gnu_hash(const char *name);

const char *vk_elf_machine_name(uint16_t machine);
const char *vk_elf_symsrc_name(enum vk_elf_symsrc src);
const char *vk_elf_sym_type_name(unsigned type);
const char *vk_elf_sym_bind_name(unsigned bind);

#endif /* VK_ELF_H */
