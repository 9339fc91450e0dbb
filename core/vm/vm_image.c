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
#include <unistd.h>

#include "core/base/array.h"
#include "core/base/elf_ids.h"
#include "core/base/file.h"
#include "core/vm/vm.h"

/*
 * How qemu boots each architecture under TCG, as Debian's kernels need:
 * the machines and consoles of the kernel's own nolibc test tables, and
 * for x86 an invariant TSC the kernel trusts, so that the vDSO can read
 * the clock (under TCG it would pick hpet, which the vDSO cannot). MIPS
 * boots Malta, the board of Debian's 4kc-malta and 5kc-malta kernels,
 * with a MIPS64R2 CPU for Debian's mips64r2 userspace (qemu's default
 * 20Kc is R1); 64-bit kernels also run o32 binaries. 32-bit powerpc boots
 * a PowerMac G3 (g3beige, as the nolibc tests do: OpenBIOS loads the
 * vmlinux, one CPU, the ESCC as ttyS0); big-endian ppc64 the pseries of
 * ppc64le. sparc64 boots sun4u (an UltraSPARC IIi, one CPU: OpenBIOS
 * loads the vmlinux), with no VGA, for OpenBIOS writes to a screen if it
 * has one, and the kernel's console follows it, not the 16550 (ttyS0).
 * These are tests/kbuild/build.sh's kernels (contrib/vm-*.config), as is
 * loongarch64's, which boots virt (its 16550 as ttyS0); qemu 7.2 enters it
 * with no firmware and hands it no command line or initramfs
 * (tests/xarch/FINDINGS.md, 16).
 */
static const struct vk_vm_arch arches[] = {
	{ "x86_64", "qemu-system-x86_64", "qemu-system-x86", { "-M", "pc", "-cpu", "max,+invtsc" },
	  "ttyS0", "tsc=reliable clocksource=tsc no_timer_check", EM_X86_64, 1, 0, "x86_64", "i386" },
	{ "i386", "qemu-system-i386", "qemu-system-x86", { "-M", "pc", "-cpu", "max,+invtsc" },
	  "ttyS0", "tsc=reliable clocksource=tsc no_timer_check", EM_386, 0, 0, "x86_64", NULL },
	{ "arm64", "qemu-system-aarch64", "qemu-system-arm",
	  { "-M", "virt", "-cpu", "max,pauth-impdef=on" }, "ttyAMA0", "", EM_AARCH64, 1, 0,
	  "aarch64", "armhf" },
	{ "armhf", "qemu-system-arm", "qemu-system-arm", { "-M", "virt", "-cpu", "cortex-a15" },
	  "ttyAMA0", "", EM_ARM, 0, 0, NULL, NULL },
	{ "ppc64le", "qemu-system-ppc64", "qemu-system-ppc",
	  { "-M", "pseries,x-vof=on", "-vga", "none" }, "hvc0", "", EM_PPC64, 1, 0, "ppc64le",
	  NULL },
	{ "powerpc", "qemu-system-ppc", "qemu-system-ppc", { "-M", "g3beige" }, "ttyS0", "",
	  EM_PPC, 0, 1, NULL, NULL },
	{ "ppc64", "qemu-system-ppc64", "qemu-system-ppc",
	  { "-M", "pseries,x-vof=on", "-vga", "none" }, "hvc0", "", EM_PPC64, 1, 1, "ppc64", NULL },
	{ "s390x", "qemu-system-s390x", "qemu-system-misc", { "-M", "s390-ccw-virtio", "-cpu", "max" },
	  "ttysclp0", "", EM_S390, 1, 1, "s390x", NULL },
	{ "riscv64", "qemu-system-riscv64", "qemu-system-misc", { "-M", "virt", "-bios", "default" },
	  "ttyS0", "", EM_RISCV, 1, 0, "riscv64", NULL },
	{ "mipsel", "qemu-system-mipsel", "qemu-system-mips", { "-M", "malta" }, "ttyS0", "",
	  EM_MIPS, 0, 0, NULL, NULL },
	{ "mips64el", "qemu-system-mips64el", "qemu-system-mips", { "-M", "malta", "-cpu", "5KEc" },
	  "ttyS0", "", EM_MIPS, 1, 0, NULL, "mipsel" },
	{ "sparc64", "qemu-system-sparc64", "qemu-system-sparc", { "-M", "sun4u", "-vga", "none" },
	  "ttyS0", "", EM_SPARCV9, 1, 1, NULL, NULL },
	{ "loongarch64", "qemu-system-loongarch64", "qemu-system-misc", { "-M", "virt" }, "ttyS0", "",
	  EM_LOONGARCH, 1, 0, "loongarch64", NULL },
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
