// SPDX-License-Identifier: MIT
/*
 * The strict JSON reader, so that bench files and the guests' reports
 * from other runs are read whole or refused with a line and column, never
 * half-read (json_read.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/json_read.h"

/* Longer numbers are refused (RFC 8259 lets a parser limit precision). */
#define MAX_NUMBER_LEN 512

struct parser {
	const unsigned char *start, *p, *end;
	int depth;
	size_t values;
	struct vk_jerr *err;
};

static int parse_value(struct parser *ps, struct vk_jval *v);

/* Record an error at byte at, finding its line and column; returns -1. */
__attribute__((format(printf, 3, 4)))
static int fail(struct parser *ps, const unsigned char *at, const char *fmt, ...)
{
	struct vk_jerr *e = ps->err;
	va_list ap;

	e->line = 1;
	e->column = 1;
	for (const unsigned char *q = ps->start; q < at; q++) {
		if (*q == '\n') {
			e->line++;
			e->column = 1;
		} else if ((*q & 0xc0) != 0x80) {	/* not a UTF-8 continuation */
			e->column++;
		}
	}
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/* How a message names the byte at p: 'x', byte 0x01, or the end. */
static const char *describe(const struct parser *ps, const unsigned char *p, char buf[16])
{
	if (p >= ps->end)
		return "the end of the input";
	if (*p >= 0x20 && *p < 0x7f)
		snprintf(buf, 16, "'%c'", *p);
	else
		snprintf(buf, 16, "byte 0x%02x", *p);
	return buf;
}

static int at(const struct parser *ps, char c)
{
	return ps->p < ps->end && *ps->p == c;
}

static void skip_space(struct parser *ps)
{
	while (ps->p < ps->end &&
	       (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static int is_digit(const unsigned char *p, const unsigned char *end)
{
	return p < end && *p >= '0' && *p <= '9';
}

static const unsigned char *skip_digits(const unsigned char *p, const unsigned char *end)
{
	while (is_digit(p, end))
		p++;
	return p;
}

static int parse_literal(struct parser *ps, struct vk_jval *v, const char *word,
			 enum vk_jtype type)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n))
		return fail(ps, ps->p, "invalid literal (expected true, false or null)");
	ps->p += n;
	v->type = type;
	return 0;
}

/* The grammar is checked here; strtod() only converts what passed. */
static int parse_number(struct parser *ps, struct vk_jval *v)
{
	const unsigned char *s = ps->p, *p = s, *end = ps->end;
	char buf[MAX_NUMBER_LEN + 1], what[16];

	if (*p == '-')
		p++;
	if (!is_digit(p, end))
		return fail(ps, p, "expected a digit, found %s", describe(ps, p, what));
	if (*p == '0' && is_digit(p + 1, end))
		return fail(ps, p, "leading zero in a number");
	p = skip_digits(p, end);
	if (p < end && *p == '.') {
		if (!is_digit(++p, end))
			return fail(ps, p, "expected a digit after '.', found %s",
				    describe(ps, p, what));
		p = skip_digits(p, end);
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		if (!is_digit(p, end))
			return fail(ps, p, "expected a digit in the exponent, found %s",
				    describe(ps, p, what));
		p = skip_digits(p, end);
	}
	if (p - s > MAX_NUMBER_LEN)
		return fail(ps, s, "number longer than %d characters", MAX_NUMBER_LEN);
	memcpy(buf, s, p - s);
	buf[p - s] = '\0';
	/* vdsokit never calls setlocale(), so the decimal point is '.'. */
	v->num = strtod(buf, NULL);
	if (isinf(v->num))
		return fail(ps, s, "number out of range");
	v->type = VK_JNUM;
	ps->p = p;
	return 0;
}

size_t vk_utf8_len(const unsigned char *s, const unsigned char *end)
{
	unsigned lo = 0x80, hi = 0xbf;	/* the second byte's range */
	size_t n;

	if (*s >= 0xc2 && *s <= 0xdf) {
		n = 2;
	} else if (*s >= 0xe0 && *s <= 0xef) {
		n = 3;
		lo = *s == 0xe0 ? 0xa0 : lo;	/* overlong */
		hi = *s == 0xed ? 0x9f : hi;	/* surrogates */
	} else if (*s >= 0xf0 && *s <= 0xf4) {
		n = 4;
		lo = *s == 0xf0 ? 0x90 : lo;	/* overlong */
		hi = *s == 0xf4 ? 0x8f : hi;	/* above U+10FFFF */
	} else {
		return 0;
	}
	if ((size_t)(end - s) < n || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	}
	return n;
}

static size_t put_utf8(unsigned char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = 0xc0 | cp >> 6;
		o[1] = 0x80 | (cp & 0x3f);
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = 0xe0 | cp >> 12;
		o[1] = 0x80 | (cp >> 6 & 0x3f);
		o[2] = 0x80 | (cp & 0x3f);
		return 3;
	}
	o[0] = 0xf0 | cp >> 18;
	o[1] = 0x80 | (cp >> 12 & 0x3f);
	o[2] = 0x80 | (cp >> 6 & 0x3f);
	o[3] = 0x80 | (cp & 0x3f);
	return 4;
}

/* Four hex digits at p, before end, into *cp. */
static int hex4(const unsigned char *p, const unsigned char *end, unsigned *cp)
{
	if (end - p < 4)
		return -1;
	*cp = 0;
	for (int i = 0; i < 4; i++) {
		unsigned c = p[i], lower = c | 0x20;

		if (c >= '0' && c <= '9')
			*cp = *cp << 4 | (c - '0');
		else if (lower >= 'a' && lower <= 'f')
			*cp = *cp << 4 | (lower - 'a' + 10);
		else
			return -1;
	}
	return 0;
}

/*
 * Decode the escape whose backslash is at p, in a string ending at end,
 * appending UTF-8 at out + *n. Returns the byte after it, NULL on error.
 */
static const unsigned char *unescape(struct parser *ps, const unsigned char *p,
				     const unsigned char *end, unsigned char *out, size_t *n)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *simple = p[1] ? strchr(from, p[1]) : NULL;
	unsigned cp, low;
	char what[16];

	if (simple) {
		out[(*n)++] = to[simple - from];
		return p + 2;
	}
	if (p[1] != 'u') {
		fail(ps, p, "invalid escape: '\\' followed by %s", describe(ps, p + 1, what));
		return NULL;
	}
	if (hex4(p + 2, end, &cp)) {
		fail(ps, p, "invalid escape: \\u needs four hex digits");
		return NULL;
	}
	if (cp >= 0xd800 && cp <= 0xdbff) {
		/* A high surrogate must be followed by a low one: one character. */
		if (end - p < 12 || p[6] != '\\' || p[7] != 'u' || hex4(p + 8, end, &low) ||
		    low < 0xdc00 || low > 0xdfff) {
			fail(ps, p, "unpaired surrogate \\u%04x", cp);
			return NULL;
		}
		cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
		p += 6;
	} else if (cp >= 0xdc00 && cp <= 0xdfff) {
		fail(ps, p, "unpaired surrogate \\u%04x", cp);
		return NULL;
	}
	*n += put_utf8(out + *n, cp);
	return p + 6;
}

/*
 * A string at ps->p (its opening quote), decoded into a new buffer at
 * *out. It is first scanned to its closing quote: decoding never makes
 * a string longer, so that bounds the buffer.
 */
static int parse_string(struct parser *ps, char **out, size_t *len)
{
	const unsigned char *open = ps->p, *close = open + 1, *p;
	unsigned char *s;
	size_t n = 0, k;

	while (close < ps->end && *close != '"') {
		if (*close == '\\' && ++close == ps->end)
			break;
		close++;
	}
	if (close >= ps->end)
		return fail(ps, open, "unterminated string");
	s = malloc(close - open);
	if (!s)
		return fail(ps, open, "out of memory");
	*out = (char *)s;
	for (p = open + 1; p < close;) {
		if (*p == '\\') {
			p = unescape(ps, p, close, s, &n);
			if (!p)
				return -1;
		} else if (*p < 0x20) {
			return fail(ps, p, "unescaped control character 0x%02x in a string", *p);
		} else if (*p < 0x80) {
			s[n++] = *p++;
		} else if ((k = vk_utf8_len(p, close))) {
			memcpy(s + n, p, k);
			n += k;
			p += k;
		} else {
			return fail(ps, p, "invalid UTF-8 in a string");
		}
	}
	s[n] = '\0';
	*len = n;
	ps->p = close + 1;
	return 0;
}

/* Add a zeroed item to an array or object; NULL when memory runs out. */
static struct vk_jval *append(struct parser *ps, struct vk_jval *v, size_t *cap)
{
	if (++ps->values > VK_JMAX_VALUES) {
		fail(ps, ps->p, "more than %lu values", VK_JMAX_VALUES);
		return NULL;
	}
	if (v->n == *cap) {
		size_t ncap = *cap ? 2 * *cap : 4;
		struct vk_jval *items = NULL;

		if (ncap <= SIZE_MAX / sizeof(*items))
			items = realloc(v->items, ncap * sizeof(*items));
		if (!items) {
			fail(ps, ps->p, "out of memory");
			return NULL;
		}
		v->items = items;
		*cap = ncap;
	}
	memset(&v->items[v->n], 0, sizeof(v->items[0]));
	return &v->items[v->n++];
}

/* Step into the array or object at ps->p, within the depth limit. */
static int enter(struct parser *ps)
{
	if (++ps->depth > VK_JMAX_DEPTH)
		return fail(ps, ps->p, "nested deeper than %d levels", VK_JMAX_DEPTH);
	ps->p++;
	return 0;
}

/* Step out at the closing bracket if it is next: an empty array or object. */
static int leave_empty(struct parser *ps, char close)
{
	skip_space(ps);
	if (!at(ps, close))
		return 0;
	ps->p++;
	ps->depth--;
	return 1;
}

/* After an item: 1 when a comma brings another, 0 at the end, -1 on error. */
static int next_item(struct parser *ps, char close, const char *where)
{
	const unsigned char *comma;
	char what[16];

	skip_space(ps);
	if (at(ps, close)) {
		ps->p++;
		ps->depth--;
		return 0;
	}
	if (!at(ps, ','))
		return fail(ps, ps->p, "expected ',' or '%c' %s, found %s", close, where,
			    describe(ps, ps->p, what));
	comma = ps->p++;
	skip_space(ps);
	if (at(ps, close))
		return fail(ps, comma, "trailing comma before '%c'", close);
	return 1;
}

static int parse_array(struct parser *ps, struct vk_jval *v)
{
	struct vk_jval *item;
	size_t cap = 0;
	int more;

	v->type = VK_JARRAY;
	if (enter(ps))
		return -1;
	if (leave_empty(ps, ']'))
		return 0;
	do {
		item = append(ps, v, &cap);
		if (!item || parse_value(ps, item))
			return -1;
	} while ((more = next_item(ps, ']', "in an array")) == 1);
	return more;
}

/* A member's key and where it starts, to find a key given twice. */
struct key_at {
	const char *key;
	size_t at;	/* the offset of its opening quote */
};

static int cmp_key_at(const void *pa, const void *pb)
{
	const struct key_at *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);

	return c ? c : (a->at > b->at) - (a->at < b->at);
}

/* A key as a message shows it: printable ASCII, the rest '?', cut at 32. */
static const char *key_shown(const char *key, char buf[40])
{
	size_t n = 0;

	for (; key[n] && n < 32; n++)
		buf[n] = key[n] >= 0x20 && key[n] < 0x7f ? key[n] : '?';
	strcpy(buf + n, key[n] ? "..." : "");
	return buf;
}

/*
 * Readers differ on a key given twice in an object (Python's json takes
 * the last, vk_jget the first), so a document is refused at the first
 * repeat. keys: v's, which are sorted, so that an object of a million
 * members costs no more than its parse.
 */
static int unique_keys(struct parser *ps, const struct vk_jval *v, struct key_at *keys)
{
	const struct key_at *repeat = NULL;
	char buf[40];

	for (size_t i = 0; i < v->n; i++)
		keys[i].key = v->items[i].key;
	qsort(keys, v->n, sizeof(*keys), cmp_key_at);
	for (size_t i = 1; i < v->n; i++) {
		if (!strcmp(keys[i - 1].key, keys[i].key) && (!repeat || keys[i].at < repeat->at))
			repeat = &keys[i];
	}
	if (repeat)
		return fail(ps, ps->start + repeat->at, "the key \"%s\" is repeated in an object",
			    key_shown(repeat->key, buf));
	return 0;
}

/* The members up to '}', each key's place in *keys, grown with v's items. */
static int parse_members(struct parser *ps, struct vk_jval *v, struct key_at **keys)
{
	struct vk_jval *item;
	size_t cap = 0, keycap = 0, keylen;
	char what[16];
	int more;

	do {
		skip_space(ps);
		if (!at(ps, '"'))
			return fail(ps, ps->p, "expected a string key, found %s",
				    describe(ps, ps->p, what));
		item = append(ps, v, &cap);
		if (!item)
			return -1;
		if (keycap < cap) {
			struct key_at *grown = realloc(*keys, cap * sizeof(**keys));

			if (!grown)
				return fail(ps, ps->p, "out of memory");
			*keys = grown;
			keycap = cap;
		}
		(*keys)[v->n - 1].at = (size_t)(ps->p - ps->start);
		if (parse_string(ps, &item->key, &keylen))
			return -1;
		skip_space(ps);
		if (!at(ps, ':'))
			return fail(ps, ps->p, "expected ':' after a key, found %s",
				    describe(ps, ps->p, what));
		ps->p++;
		if (parse_value(ps, item))
			return -1;
	} while ((more = next_item(ps, '}', "in an object")) == 1);
	return more;
}

static int parse_object(struct parser *ps, struct vk_jval *v)
{
	struct key_at *keys = NULL;
	int status;

	v->type = VK_JOBJECT;
	if (enter(ps))
		return -1;
	if (leave_empty(ps, '}'))
		return 0;
	status = parse_members(ps, v, &keys);
	if (status == 0)
		status = unique_keys(ps, v, keys);
	free(keys);
	return status;
}

static int parse_value(struct parser *ps, struct vk_jval *v)
{
	char what[16];

	skip_space(ps);
	if (ps->p < ps->end) {
		switch (*ps->p) {
		case '{':
			return parse_object(ps, v);
		case '[':
			return parse_array(ps, v);
		case '"':
			v->type = VK_JSTR;
			return parse_string(ps, &v->str, &v->len);
		case 't':
			return parse_literal(ps, v, "true", VK_JTRUE);
		case 'f':
			return parse_literal(ps, v, "false", VK_JFALSE);
		case 'n':
			return parse_literal(ps, v, "null", VK_JNULL);
		}
		if (*ps->p == '-' || is_digit(ps->p, ps->end))
			return parse_number(ps, v);
	}
	return fail(ps, ps->p, "expected a value, found %s", describe(ps, ps->p, what));
}

struct vk_jval *vk_jparse(const char *text, size_t len, struct vk_jerr *err)
{
	const unsigned char *start = (const unsigned char *)text;
	struct parser ps = { start, start, start + len, 0, 0, err };
	struct vk_jval *root = calloc(1, sizeof(*root));
	char what[16];

	if (!root) {
		fail(&ps, ps.p, "out of memory");
		return NULL;
	}
	if (parse_value(&ps, root) == 0) {
		skip_space(&ps);
		if (ps.p == ps.end)
			return root;
		fail(&ps, ps.p, "unexpected %s after the document", describe(&ps, ps.p, what));
	}
	vk_jfree(root);
	return NULL;
}

/* Recursion is bounded: a tree is never deeper than VK_JMAX_DEPTH. */
static void free_contents(struct vk_jval *v)
{
	for (size_t i = 0; i < v->n; i++)
		free_contents(&v->items[i]);
	free(v->items);
	free(v->key);
	free(v->str);
}

void vk_jfree(struct vk_jval *v)
{
	if (v) {
		free_contents(v);
		free(v);
	}
}

void vk_jdrop(struct vk_jval *v)
{
	char *key = v->key;

	v->key = NULL;
	free_contents(v);
	*v = (struct vk_jval){ .type = VK_JNULL, .key = key };
}

const struct vk_jval *vk_jget(const struct vk_jval *obj, const char *key)
{
	if (!obj || obj->type != VK_JOBJECT)
		return NULL;
	for (size_t i = 0; i < obj->n; i++) {
		if (strcmp(obj->items[i].key, key) == 0)
			return &obj->items[i];
	}
	return NULL;
}

size_t vk_jarray_len(const struct vk_jval *arr)
{
	return arr && arr->type == VK_JARRAY ? arr->n : 0;
}

const struct vk_jval *vk_jarray_at(const struct vk_jval *arr, size_t i)
{
	return i < vk_jarray_len(arr) ? &arr->items[i] : NULL;
}

double vk_jnum(const struct vk_jval *v)
{
	return v && v->type == VK_JNUM ? v->num : NAN;
}

const char *vk_jstr(const struct vk_jval *v)
{
	return v && v->type == VK_JSTR ? v->str : NULL;
}
