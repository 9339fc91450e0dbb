/* SPDX-License-Identifier: MIT */
/*
 * A strict JSON (RFC 8259) parser into a tree, for reading files other
 * runs wrote. It accepts exactly the grammar: no comments, no trailing
 * commas, no leading zeros, UTF-8 only, and no key twice in an object
 * (keys equal up to a \u0000 count as one), which readers take
 * differently; and any input, however broken or hostile, yields a tree
 * or an error with its line and column, never a crash, a hang or
 * unbounded recursion.
 */
#ifndef VK_JSON_READ_H
#define VK_JSON_READ_H

#include <stddef.h>

/* Arrays and objects nest at most this deep. */
#define VK_JMAX_DEPTH 64
/*
 * A document holds at most this many values, which bounds its tree (56
 * bytes a value) whatever the text: a 64 MiB bench file holds some 2.5
 * million, "[1,1,...]" four times as many.
 */
#define VK_JMAX_VALUES (1UL << 22)

enum vk_jtype { VK_JNULL, VK_JFALSE, VK_JTRUE, VK_JNUM, VK_JSTR, VK_JARRAY, VK_JOBJECT };

struct vk_jval {
	enum vk_jtype type;
	char *key;		/* the member's name in an object, else NULL */
	double num;		/* VK_JNUM */
	char *str;		/* VK_JSTR: UTF-8, NUL-terminated */
	size_t len;		/* VK_JSTR: its bytes (a \u0000 may end it early) */
	struct vk_jval *items;	/* VK_JARRAY, VK_JOBJECT: elements or members */
	size_t n;		/* how many */
};

struct vk_jerr {
	unsigned long line, column;	/* from 1; columns count characters */
	char msg[96];
};

/* Parse len bytes; NULL on error, described in *err. */
struct vk_jval *vk_jparse(const char *text, size_t len, struct vk_jerr *err);
void vk_jfree(struct vk_jval *v);
/* Free what v holds and make it null, keeping its key: a part read and no longer needed. */
void vk_jdrop(struct vk_jval *v);

/*
 * Accessors take NULL or a value of the wrong type and then return NULL,
 * 0 or NAN, so lookups chain: vk_jstr(vk_jget(vk_jget(doc, "a"), "b")).
 */
/* The member named key: keys are unique. */
const struct vk_jval *vk_jget(const struct vk_jval *obj, const char *key);
size_t vk_jarray_len(const struct vk_jval *arr);
const struct vk_jval *vk_jarray_at(const struct vk_jval *arr, size_t i);
double vk_jnum(const struct vk_jval *v);
const char *vk_jstr(const struct vk_jval *v);
/* The length of the well-formed multibyte UTF-8 sequence (RFC 3629) at s,
 * within end, or 0; the reader's and the reporters' one test of it. */
size_t vk_utf8_len(const unsigned char *s, const unsigned char *end);

#endif /* VK_JSON_READ_H */
