// SPDX-License-Identifier: MIT
/*
 * The JSON writer every reporter prints JSON through, so that nesting,
 * commas and escapes are right once (json_writer.h).
 */
#include <math.h>

#include "report/json_writer.h"
#include "report/safe.h"

static struct vk_json *nest;

void vk_json_nest(struct vk_json *parent)
{
	nest = parent;
}

void vk_json_init(struct vk_json *j, FILE *f)
{
	if (nest && nest->f == f) {
		*j = *nest;
		j->parent = nest;
		j->base = nest->depth;
		return;
	}
	j->f = f;
	j->parent = NULL;
	j->base = 0;
	j->depth = 0;
	j->count[0] = 0;
}

static void indent(struct vk_json *j)
{
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/*
 * JSON is UTF-8: a byte of an image's string that is not (ELF strings are
 * any bytes) becomes U+FFFD, and a C1 control is escaped like C0's.
 */
static void put_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t k;

	fputc('"', f);
	for (; *p; p += k) {
		k = vk_printable_len(p);
		if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p);
		} else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			fprintf(f, "\\u%04x", p[1]);
			k = 2;
		} else if (k) {
			fwrite(p, 1, k, f);
		} else {
			if (*p == '\n')
				fputs("\\n", f);
			else if (*p < 0x20 || *p == 0x7f)
				fprintf(f, "\\u%04x", *p);
			else
				fputs("\\ufffd", f);
			k = 1;
		}
	}
	fputc('"', f);
}

/* Start a member: comma, newline and indent, then the key if any. */
static void member(struct vk_json *j, const char *key)
{
	if (j->depth > 0) {
		if (j->count[j->depth]++)
			fputc(',', j->f);
		indent(j);
	}
	if (key) {
		put_string(j->f, key);
		fputs(": ", j->f);
	}
}

static void open_level(struct vk_json *j, const char *key, char open, char close)
{
	member(j, key);
	fputc(open, j->f);
	if (j->depth + 1 < VK_JSON_MAX_DEPTH) {
		j->depth++;
		j->count[j->depth] = 0;
		j->close[j->depth] = close;
	}
}

void vk_json_object(struct vk_json *j, const char *key)
{
	open_level(j, key, '{', '}');
}

void vk_json_array(struct vk_json *j, const char *key)
{
	open_level(j, key, '[', ']');
}

void vk_json_end(struct vk_json *j)
{
	char close;

	if (j->depth == j->base)
		return;
	close = j->close[j->depth];
	j->depth--;
	if (j->count[j->depth + 1])
		indent(j);
	fputc(close, j->f);
	if (j->parent && j->depth == j->base)
		j->parent->count[j->base] = j->count[j->base];
	else if (j->depth == 0)
		fputc('\n', j->f);
}

void vk_json_str(struct vk_json *j, const char *key, const char *val)
{
	if (!val) {
		vk_json_null(j, key);
		return;
	}
	member(j, key);
	put_string(j->f, val);
}

void vk_json_int(struct vk_json *j, const char *key, long long val)
{
	member(j, key);
	fprintf(j->f, "%lld", val);
}

void vk_json_uint(struct vk_json *j, const char *key, unsigned long long val)
{
	member(j, key);
	fprintf(j->f, "%llu", val);
}

void vk_json_double(struct vk_json *j, const char *key, double val)
{
	if (!isfinite(val)) {
		vk_json_null(j, key);
		return;
	}
	member(j, key);
	fprintf(j->f, "%.17g", val);
}

void vk_json_bool(struct vk_json *j, const char *key, int val)
{
	member(j, key);
	fputs(val ? "true" : "false", j->f);
}

void vk_json_null(struct vk_json *j, const char *key)
{
	member(j, key);
	fputs("null", j->f);
}
