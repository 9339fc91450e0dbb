/* SPDX-License-Identifier: MIT */
/*
 * What `vdsokit vm` needs to boot a kernel: the architecture a kernel
 * image is for, read from its own header; how qemu boots each one; and
 * an initramfs (newc cpio) holding a static vdsokit as /init.
 */
#ifndef VK_VM_H
#define VK_VM_H

#include <stddef.h>
#include <stdint.h>

struct vk_vm_arch {
	const char *name;		/* as `make cross ARCH=` names it */
	const char *qemu;		/* qemu-system-* */
	const char *package;		/* Debian's package for it */
	const char *machine[6];		/* -M and -cpu under TCG */
	const char *console;
	const char *append;		/* what its clocks need (x86: tsc) */
	uint16_t elf_machine;		/* of its userspace binaries */
	int is64;
	int big_endian;
	const char *host;		/* uname -m where KVM could run it, or NULL */
};

const struct vk_vm_arch *vk_vm_arch_find(const char *name);
/* Every row, for messages: "arm64, armhf, ...". */
void vk_vm_arch_names(char *buf, size_t len);

/* The architecture of the kernel image at path: 0 and *arch, or -1 and
 * why in err (unreadable, or no header that names an architecture). */
int vk_vm_kernel_arch(const char *path, const struct vk_vm_arch **arch, char *err,
		      size_t len);
/* Whether the ELF file at path is a static executable for arch: 0, or -1
 * and why in err. */
int vk_vm_check_binary(const char *path, const struct vk_vm_arch *arch, char *err,
		       size_t len);

/* A newc initramfs: directories, then files from memory or disk. */
struct vk_cpio {
	int fd;
	uint64_t off;
	unsigned ino;
};

void vk_cpio_start(struct vk_cpio *c, int fd);
int vk_cpio_dir(struct vk_cpio *c, const char *name);
int vk_cpio_file(struct vk_cpio *c, const char *name, unsigned mode, const void *data,
		 size_t len);
int vk_cpio_finish(struct vk_cpio *c);

#endif /* VK_VM_H */
