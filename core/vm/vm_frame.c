// SPDX-License-Identifier: MIT
/*
 * The framing of `vdsokit vm`'s console, both ends: the guest's /init
 * (core/vm/vm_init.c) writes frames, the host (core/vm/vm_boot.c) reads
 * them among the kernel's own lines. The serial line has no flow control
 * the guest can trust to the end, and kernel messages can land in the
 * middle of a line, so every frame is numbered and each command's output
 * is closed with its length and checksum: whatever is lost or damaged on
 * the way is found, never taken for a short but good log.
 *
 *   vdsokit-vm:start V                  /init runs, framing version V
 *   vdsokit-vm:o SEQ TEXT               a line of the command's stdout
 *   vdsokit-vm:O SEQ TEXT               the same, no newline yet
 *   vdsokit-vm:e SEQ TEXT, E SEQ TEXT   the same for stderr
 *   vdsokit-vm:k KSEQ TEXT              a kernel message the command's run
 *                                       logged (the console shows only
 *                                       emergencies meanwhile), after its
 *                                       exit; KSEQ counts these alone
 *   vdsokit-vm:exit N SEQ CMD BYTES SUM command CMD (from 1) exited N; its
 *                                       output was BYTES bytes, FNV-1a SUM
 *   vdsokit-vm:end SEQ KSEQ             every command ran; KSEQ kernel
 *                                       messages were sent
 *   vdsokit-vm:pause N                  (stress) pause the guest N s
 *
 * SEQ counts the numbered frames from 1. TEXT has \, CR and NUL escaped
 * (\\, \r, \0): the tty turns \n into \r\n, and the host drops every \r.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/isolate.h"
#include "core/vm/vm.h"

static uint32_t fnv1a32(uint32_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x01000193u;
	return h;
}

/* What a frame of kind adds to its command's output: the text, and the
 * newline that a whole line ('o', 'e') had. */
static void account(uint32_t *sum, unsigned long long *bytes, char kind, const char *s,
		    size_t n)
{
	int line = kind == 'o' || kind == 'e';

	*sum = fnv1a32(fnv1a32(*sum, &kind, 1), s, n);
	*bytes += n + line;
}

void vk_vm_frame_count(const struct vk_vm_frame *fr, uint32_t *sum, unsigned long long *bytes)
{
	account(sum, bytes, fr->kind, fr->text, fr->n);
}

void vk_vm_frames_start(struct vk_vm_frames *f, int fd)
{
	char line[48];
	int n = snprintf(line, sizeof(line), "\n" VK_VM_MARK "start %d\n", VK_VM_FRAMING);

	memset(f, 0, sizeof(*f));
	f->fd = fd;
	f->sum = VK_VM_SUM_BASIS;
	vk_write_all(fd, line, n);
}

void vk_vm_frame_text(struct vk_vm_frames *f, char kind, const char *s, size_t n)
{
	/* One write a frame: a kernel message can only land between two. */
	char buf[2 * VK_VM_FRAME_TEXT + 64];
	size_t m = snprintf(buf, sizeof(buf), VK_VM_MARK "%c %lu ", kind,
			    kind == 'k' ? ++f->kseq : ++f->seq);

	for (size_t i = 0; i < n && i < VK_VM_FRAME_TEXT; i++) {
		char c = s[i];

		if (c == '\\' || c == '\r' || c == '\0') {
			buf[m++] = '\\';
			c = c == '\r' ? 'r' : c == '\0' ? '0' : '\\';
		}
		buf[m++] = c;
	}
	buf[m++] = '\n';
	if (kind != 'k')
		account(&f->sum, &f->bytes, kind, s, n < VK_VM_FRAME_TEXT ? n : VK_VM_FRAME_TEXT);
	vk_write_all(f->fd, buf, m);
}

void vk_vm_frame_exit(struct vk_vm_frames *f, int status)
{
	char line[128];
	int n = snprintf(line, sizeof(line), VK_VM_MARK "exit %d %lu %d %llu %08" PRIx32 "\n",
			 status, ++f->seq, ++f->cmd, f->bytes, f->sum);

	f->bytes = 0;
	f->sum = VK_VM_SUM_BASIS;
	vk_write_all(f->fd, line, n);
}

void vk_vm_frame_end(struct vk_vm_frames *f)
{
	char line[64];
	int n = snprintf(line, sizeof(line), VK_VM_MARK "end %lu %lu\n", ++f->seq, f->kseq);

	vk_write_all(f->fd, line, n);
}

/* Undo the escapes in place; the new length, or -1 for a bad escape. */
static long unescape(char *s, size_t n)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '\\') {
			if (++i == n)
				return -1;
			c = s[i] == 'r' ? '\r' : s[i] == '0' ? '\0' : s[i] == '\\' ? '\\' : 0;
			if (!c && s[i] != '0')
				return -1;
		}
		s[m++] = c;
	}
	return m;
}

/* A decimal number ending at a space or the end: its end, or NULL. */
static char *number(char *s, unsigned long long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return NULL;
	*v = strtoull(s, &end, 10);
	return *end == ' ' || *end == '\0' ? end : NULL;
}

static int parse_text(char *s, size_t n, struct vk_vm_frame *fr)
{
	unsigned long long seq;
	char *end = number(s + 2, &seq);
	long m;

	if (!end || *end != ' ')
		return -1;
	fr->seq = seq;
	fr->text = end + 1;
	m = unescape(fr->text, n - (fr->text - s));
	if (m < 0)
		return -1;
	fr->n = m;
	return 1;
}

int vk_vm_frame_parse(char *line, size_t n, struct vk_vm_frame *fr)
{
	size_t m = strlen(VK_VM_MARK);
	unsigned long long v[5];
	char *s = line + m, *p;
	int k;

	memset(fr, 0, sizeof(*fr));
	if (n < m || memcmp(line, VK_VM_MARK, m))
		return 0;
	fr->kind = *s;
	if (*s && strchr("oOeEk", *s) && s[1] == ' ')
		return parse_text(s, n - m, fr);
	/* Version 1 said no version, and numbered nothing. */
	if (!strcmp(s, "start")) {
		fr->kind = 's';
		fr->version = 1;
		return 1;
	}
	if (!strncmp(s, "start ", 6)) {
		fr->kind = 's';
		return number(s + 6, v) && v[0] < 1000 ? (fr->version = v[0], 1) : -1;
	}
	if (!strncmp(s, "pause ", 6)) {
		fr->kind = 'p';
		return number(s + 6, v) && v[0] < 1000 ? (fr->status = v[0], 1) : -1;
	}
	if (!strncmp(s, "end ", 4)) {
		fr->kind = 'z';
		if (!(p = number(s + 4, v)) || *p != ' ' || !(p = number(p + 1, v + 1)) || *p)
			return -1;
		fr->seq = v[0];
		fr->kseq = v[1];
		return 1;
	}
	if (strncmp(s, "exit ", 5))
		return -1;
	fr->kind = 'x';
	p = s + 5;
	for (k = 0; k < 5 && p && *p; k++) {
		/* The status, the sequence, the command, the bytes, the sum (hex). */
		if (k == 4) {
			char *end;

			v[k] = strtoull(p, &end, 16);
			p = end - p == 8 && !*end ? end : NULL;
		} else if ((p = number(p, &v[k])) && *p) {
			p++;
		}
	}
	if (k != 5 || !p || v[0] > 255 || v[2] < 1 || v[2] > VK_VM_MAX_CMDS)
		return -1;
	fr->status = v[0];
	fr->seq = v[1];
	fr->cmd = v[2];
	fr->bytes = v[3];
	fr->sum = v[4];
	return 1;
}
