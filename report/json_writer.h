/* SPDX-License-Identifier: MIT */
/*
 * A streaming JSON writer: it tracks nesting and commas and escapes
 * strings, so reporters only say what to write. Keys are NULL inside arrays.
 */
#ifndef VK_REPORT_JSON_WRITER_H
#define VK_REPORT_JSON_WRITER_H

#include <stdio.h>

#define VK_JSON_MAX_DEPTH 16

struct vk_json {
	FILE *f;
	struct vk_json *parent;	/* the document this one nests in, or NULL */
	int base;		/* then: parent's depth, where this one ends */
	int depth;
	int count[VK_JSON_MAX_DEPTH];	/* members written at each level */
	char close[VK_JSON_MAX_DEPTH];	/* the bracket that ends each level */
};

void vk_json_init(struct vk_json *j, FILE *f);
/*
 * While parent is set (NULL: no more), a document begun on its stream by
 * vk_json_init() is an element of parent's open array: `all` nests each
 * command's document, written by that command's own writer, in its own.
 */
void vk_json_nest(struct vk_json *parent);
void vk_json_object(struct vk_json *j, const char *key);
void vk_json_array(struct vk_json *j, const char *key);
void vk_json_end(struct vk_json *j);	/* closes the innermost object/array */
void vk_json_str(struct vk_json *j, const char *key, const char *val);
void vk_json_int(struct vk_json *j, const char *key, long long val);
void vk_json_uint(struct vk_json *j, const char *key, unsigned long long val);
void vk_json_double(struct vk_json *j, const char *key, double val);
void vk_json_bool(struct vk_json *j, const char *key, int val);
void vk_json_null(struct vk_json *j, const char *key);

#endif /* VK_REPORT_JSON_WRITER_H */
