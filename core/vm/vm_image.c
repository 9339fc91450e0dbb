// SPDX-License-Identifier: MIT
/*
 * What vm needs to know of a kernel and a binary before it boots them:
 * each architecture's qemu, the kernel image's architecture, and whether
 * the binary can run in its guest (vm.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/array.h"
#include "core/base/elf_ids.h"
#include "core/base/file.h"
#include "core/vm/vm.h"

/* The rows of core/base/arches.def that vm boots (its VK_ARCH rows). */
#define VK_ARCH(name, abi, debian, cross, cflags, cc_pkgs, libc_pkgs, dist, qemu_user, qemu,     \
		qemu_pkg, console, append, machine, is64, big_endian, host, compat, ...)          \
	{ name, qemu, qemu_pkg, { __VA_ARGS__ }, console, append, machine, is64, big_endian, host, \
	  compat },
static const struct vk_vm_arch arches[] = {
#include "core/base/arches.def"
};

#define NARCHES ARRAY_SIZE(arches)

const struct vk_vm_arch *vk_vm_arch_find(const char *name)
{
	for (size_t i = 0; i < NARCHES; i++) {
		if (!strcmp(arches[i].name, name))
			return &arches[i];
	}
	return NULL;
}

void vk_vm_arch_names(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NARCHES && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? ", " : "", arches[i].name);
}

const char *vk_vm_qemu_opt(const struct vk_vm_arch *a, const struct vk_vm_board *b,
			   const char *opt)
{
	const char *board = !strcmp(opt, "-M") ? b->machine : b->cpu;

	if (board)
		return board;
	for (int i = 0; i + 1 < VK_VM_MACHINE_WORDS && a->machine[i + 1]; i++) {
		if (!strcmp(a->machine[i], opt))
			return a->machine[i + 1];
	}
	return NULL;
}

/*
 * qemu's Malta starts more than one CPU only as the VPEs of an MT core
 * (malta_mips_config sets the 34Kf's MVPConf0.PVPE from -smp) or through
 * the CPS of an I6400 or I6500. Its other cores have no SMP: with -smp 2
 * qemu printed nothing in 6 of 12 boots of the default 24Kf, and nothing
 * in 960 s with the 5KEc, where -smp 1 booted every time
 * (tests/xarch/FINDINGS.md, 12).
 */
static const char *const malta_smp_cores[] = { "34Kf", "I6400", "I6500" };

unsigned long vk_vm_max_cpus(const struct vk_vm_arch *a, const struct vk_vm_board *b)
{
	const char *machine = vk_vm_qemu_opt(a, b, "-M"), *cpu = vk_vm_qemu_opt(a, b, "-cpu");

	/* A PowerMac G3 and qemu's sun4u have one CPU: qemu refuses -smp 2. */
	if (machine && (!strcmp(machine, "g3beige") || !strcmp(machine, "sun4u")))
		return 1;
	if (!machine || strcmp(machine, "malta"))
		return 0;
	for (size_t i = 0; cpu && i < ARRAY_SIZE(malta_smp_cores); i++) {
		if (!strcasecmp(cpu, malta_smp_cores[i]))
			return 0;
	}
	return 1;
}

static uint16_t get16(const unsigned char *p, int big)
{
	return big ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

static uint32_t get32le(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The row of an ELF file's machine, class and byte order, or NULL. */
static const struct vk_vm_arch *elf_arch(const unsigned char *h)
{
	int big = h[EI_DATA] == ELFDATA2MSB, is64 = h[EI_CLASS] == ELFCLASS64;
	uint16_t machine = get16(h + 18, big);

	for (size_t i = 0; i < NARCHES; i++) {
		if (arches[i].elf_machine == machine && arches[i].is64 == is64 &&
		    arches[i].big_endian == big)
			return &arches[i];
	}
	return NULL;
}

/*
 * Each boot format's own magic: an ELF vmlinux; x86's bzImage ("HdrS",
 * with XLF_KERNEL_64 for a 64-bit kernel); arm64's and riscv's Image
 * headers (also inside their EFI stubs); arm's zImage; s390's IPL PSW.
 */
static const struct vk_vm_arch *header_arch(const unsigned char *h, size_t n)
{
	static const unsigned char s390_psw[8] = { 0x02, 0, 0, 0x18, 0x60, 0, 0, 0x50 };

	if (n >= 20 && !memcmp(h, ELFMAG, SELFMAG))
		return elf_arch(h);
	if (n >= 0x238 && !memcmp(h + 0x202, "HdrS", 4))
		return vk_vm_arch_find(h[0x236] & 1 ? "x86_64" : "i386");
	if (n >= 60 && !memcmp(h + 56, "ARM\x64", 4))
		return vk_vm_arch_find("arm64");
	if (n >= 60 && !memcmp(h + 56, "RSC\x05", 4))
		return vk_vm_arch_find("riscv64");
	if (n >= 0x28 && get32le(h + 0x24) == 0x016f2818)
		return vk_vm_arch_find("armhf");
	if (n >= 16 && !memcmp(h + 8, s390_psw, sizeof(s390_psw)))
		return vk_vm_arch_find("s390x");
	return NULL;
}

static ssize_t read_head(const char *path, unsigned char *buf, size_t len, char *err,
			 size_t errlen)
{
	int fd = vk_open_regular(path, err, errlen);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = pread(fd, buf, len, 0);
	if (n < 0)
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	close(fd);
	return n;
}

int vk_vm_kernel_arch(const char *path, const struct vk_vm_arch **arch, char *err,
		      size_t len)
{
	unsigned char h[1024];
	ssize_t n = read_head(path, h, sizeof(h), err, len);

	if (n < 0)
		return -1;
	*arch = header_arch(h, n);
	if (!*arch) {
		snprintf(err, len, "%s: no kernel image header names its architecture (a compressed or unknown image? give --arch)",
			 path);
		return -1;
	}
	return 0;
}

/* A 32-bit ELF file of a 64-bit kernel's own machine: x32 or mips n32,
 * which the kernel runs where it was built with them (X86_X32_ABI,
 * MIPS32_N32). */
static int is_ilp32_of(const unsigned char *h, const struct vk_vm_arch *arch)
{
	int big = h[EI_DATA] == ELFDATA2MSB;

	return arch->is64 && h[EI_CLASS] == ELFCLASS32 && big == arch->big_endian &&
	       get16(h + 18, big) == arch->elf_machine;
}

int vk_vm_check_binary(const char *path, const struct vk_vm_arch *arch, int dynamic,
		       char *err, size_t len)
{
	unsigned char h[64];
	ssize_t n = read_head(path, h, sizeof(h), err, len);
	const struct vk_vm_arch *got;

	if (n < 0)
		return -1;
	got = n >= 20 && !memcmp(h, ELFMAG, SELFMAG) ? elf_arch(h) : NULL;
	if ((!got || (got != arch && !(arch->compat && !strcmp(arch->compat, got->name)))) &&
	    !(n >= 20 && is_ilp32_of(h, arch))) {
		snprintf(err, len, "%s is not a %s executable%s%s", path, arch->name,
			 arch->compat ? " nor a " : "", arch->compat ? arch->compat : "");
		return -1;
	}
	if (!dynamic && get16(h + 16, arch->big_endian) != ET_EXEC) {
		snprintf(err, len, "%s is not a static executable (it needs a loader the guest lacks)",
			 path);
		return -1;
	}
	return 0;
}

int vk_vm_testable(const char *kernel, int arch_given, char *err, size_t len)
{
	const struct vk_vm_arch *arch;
	struct stat st;

	if (!arch_given)
		return vk_vm_kernel_arch(kernel, &arch, err, len);
	if (stat(kernel, &st) == 0 && st.st_size > 0)
		return 0;
	snprintf(err, len, "%s: %s", kernel, access(kernel, F_OK) ? strerror(errno) : "an empty file");
	return -1;
}
