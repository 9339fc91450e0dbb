/* SPDX-License-Identifier: MIT */
/*
 * Strings that come from files and images (API names, symbols, kernel
 * strings) are anyone's bytes: an ESC, CR or LF in one would move the
 * cursor, recolour the terminal or forge a KTAP line. Every text, KTAP
 * and markdown line shows them through vk_safe().
 */
#ifndef VK_SAFE_H
#define VK_SAFE_H

#include <stddef.h>

/* At most this many bytes of a string are shown, then "...": more than
 * a result's detail holds. */
#define VK_SAFE_MAX 1024

/*
 * s with each control character (C0, DEL, C1), backslash and byte that is
 * not UTF-8 written as \xNN (\\ for a backslash), "(null)" for NULL. The
 * result lives in one of a few rotating buffers: enough for the strings
 * of one printf() call, and for single-threaded reporters only.
 */
const char *vk_safe(const char *s);
/* The length of the printable character at s (ASCII, or a well-formed
 * UTF-8 sequence that is not a C1 control), or 0. */
size_t vk_printable_len(const unsigned char *s);

#endif /* VK_SAFE_H */
