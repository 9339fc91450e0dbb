// SPDX-License-Identifier: MIT
/*
 * core/base/json_read.c: valid documents parse to the right tree; every kind
 * of invalid input is refused with its line and column, and none of it,
 * nor any truncation of a valid document, crashes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/array.h"
#include "core/base/json_read.h"
#include "tests/unit/test.h"

static const char bench[] =
	"{\n"
	"  \"schema\": \"vdsokit-bench/1\",\n"
	"  \"kernel\": {\"release\": \"6.18.44\", \"machine\": \"x86_64\"},\n"
	"  \"options\": {\"seconds\": 0.3, \"samples\": 3, \"cold\": false, \"cpu\": null},\n"
	"  \"extra\": [[], {}, [true, [false]]],\n"
	"  \"results\": [\n"
	"    {\"api\": \"clock-gettime-monotonic\", \"path\": \"vdso\", \"median_ns\": 2.26e1,\n"
	"     \"samples_ns\": [22.6, -0.5, 1E-2, 0, -0, 12.5e+1]},\n"
	"    {\"api\": \"time\", \"path\": \"syscall\", \"skipped\": \"no \\\"syscall\\\"\"}\n"
	"  ]\n"
	"}";

static struct vk_jval *parse(const char *text, struct vk_jerr *err)
{
	return vk_jparse(text, strlen(text), err);
}

static void test_document(void)
{
	const struct vk_jval *r, *s, *opt;
	struct vk_jerr err;
	struct vk_jval *doc = parse(bench, &err);

	CHECK(doc && doc->type == VK_JOBJECT, "a bench document parses");
	if (!doc)
		return;
	CHECK(!strcmp(vk_jstr(vk_jget(doc, "schema")), "vdsokit-bench/1"), "a string member");
	CHECK(!strcmp(vk_jstr(vk_jget(vk_jget(doc, "kernel"), "machine")), "x86_64"),
	      "a nested member");
	opt = vk_jget(doc, "options");
	CHECK(vk_jnum(vk_jget(opt, "seconds")) == 0.3, "a fraction");
	CHECK(vk_jget(opt, "cold")->type == VK_JFALSE && vk_jget(opt, "cpu")->type == VK_JNULL,
	      "false and null");
	CHECK(vk_jarray_len(vk_jget(doc, "extra")) == 3 &&
	      vk_jarray_at(vk_jarray_at(vk_jget(doc, "extra"), 2), 0)->type == VK_JTRUE,
	      "nested and empty containers");
	r = vk_jarray_at(vk_jget(doc, "results"), 0);
	s = vk_jget(r, "samples_ns");
	CHECK(vk_jarray_len(s) == 6 && vk_jnum(vk_jarray_at(s, 0)) == 22.6 &&
	      vk_jnum(vk_jarray_at(s, 1)) == -0.5 && vk_jnum(vk_jarray_at(s, 2)) == 0.01 &&
	      vk_jnum(vk_jarray_at(s, 4)) == 0 && vk_jnum(vk_jarray_at(s, 5)) == 125,
	      "numbers: signs, exponents, zeros");
	CHECK(vk_jnum(vk_jget(r, "median_ns")) == 22.6, "an exponent in a member");
	r = vk_jarray_at(vk_jget(doc, "results"), 1);
	CHECK(!strcmp(vk_jstr(vk_jget(r, "skipped")), "no \"syscall\""), "escaped quotes");
	CHECK(!vk_jget(r, "samples_ns") && !vk_jget(doc, "nope"), "a missing member is NULL");
	CHECK(!vk_jarray_at(s, 6) && !vk_jarray_at(r, 0) && vk_jarray_len(NULL) == 0,
	      "out-of-range and non-array indexing is NULL");
	CHECK(isnan(vk_jnum(r)) && !vk_jstr(s) && !vk_jget(s, "api") && !vk_jget(NULL, "api"),
	      "accessors on the wrong type or NULL");
	vk_jfree(doc);
}

/* Parse one document that must be a single string; compare its bytes. */
static void check_string(const char *json, const char *want, size_t len, const char *what)
{
	struct vk_jerr err;
	struct vk_jval *v = parse(json, &err);

	CHECK(v && v->type == VK_JSTR && v->len == len && !memcmp(v->str, want, len + 1),
	      "string %s", what);
	vk_jfree(v);
}

static void test_strings(void)
{
	check_string("\"\"", "", 0, "empty");
	check_string("\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\"", "\" \\ / \b \f \n \r \t", 15,
		     "with every simple escape");
	check_string("\"\\u0041\\u00e9\\u20AC\"", "A\xc3\xa9\xe2\x82\xac", 6,
		     "with \\u escapes to 1, 2 and 3 UTF-8 bytes");
	check_string("\"\\ud83d\\ude00\"", "\xf0\x9f\x98\x80", 4, "with a surrogate pair");
	check_string("\"a\\u0000b\"", "a\0b", 3, "with \\u0000 keeps its length");
	check_string("\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\x7f\"",
		     "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\x7f", 10, "with raw UTF-8 and DEL");
}

static void test_scalars(void)
{
	struct vk_jerr err;
	struct vk_jval *v;

	v = parse(" \t\r\n-12.5e-1 \n", &err);
	CHECK(v && v->type == VK_JNUM && v->num == -1.25, "a top-level number in whitespace");
	vk_jfree(v);
	v = parse("1e-400", &err);
	CHECK(v && v->num == 0, "an underflowing number is 0");
	vk_jfree(v);
	v = parse("true", &err);
	CHECK(v && v->type == VK_JTRUE, "a top-level literal");
	vk_jfree(v);
}

/* One invalid document: refused at line:column, with msg in the message. */
static void bad(const char *json, size_t len, unsigned long line, unsigned long col,
		const char *msg)
{
	struct vk_jerr err = { 0 };
	struct vk_jval *v = vk_jparse(json, len, &err);

	CHECK(!v && err.line == line && err.column == col && strstr(err.msg, msg),
	      "refused at %lu:%lu: %s", line, col, msg);
	if (v)
		printf("#   it parsed\n");
	else if (err.line != line || err.column != col || !strstr(err.msg, msg))
		printf("#   got %lu:%lu: %s\n", err.line, err.column, err.msg);
	vk_jfree(v);
}

static void bad_str(const char *json, unsigned long line, unsigned long col, const char *msg)
{
	bad(json, strlen(json), line, col, msg);
}

static void test_errors(void)
{
	bad_str("", 1, 1, "expected a value, found the end of the input");
	bad_str("  \n ", 2, 2, "expected a value");
	bad_str("[1, 2,]", 1, 6, "trailing comma before ']'");
	bad_str("{\"a\": 1,\n }", 1, 8, "trailing comma before '}'");
	bad_str("[1 2]", 1, 4, "expected ',' or ']' in an array, found '2'");
	bad_str("{\"a\" 1}", 1, 6, "expected ':' after a key");
	bad_str("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}' in an object");
	bad_str("{a: 1}", 1, 2, "expected a string key, found 'a'");
	bad_str("{,}", 1, 2, "expected a string key");
	bad_str("[,1]", 1, 2, "expected a value, found ','");
	bad_str("[1,,2]", 1, 4, "expected a value, found ','");
	bad_str("{\n  \"a\": 01\n}", 2, 8, "leading zero");
	bad_str("-01", 1, 2, "leading zero");
	bad_str("1.", 1, 3, "expected a digit after '.', found the end");
	bad_str(".5", 1, 1, "expected a value, found '.'");
	bad_str("+1", 1, 1, "expected a value, found '+'");
	bad_str("-", 1, 2, "expected a digit");
	bad_str("1e", 1, 3, "expected a digit in the exponent");
	bad_str("1e+", 1, 4, "expected a digit in the exponent");
	bad_str("0x10", 1, 2, "unexpected 'x' after the document");
	bad_str("1e999", 1, 1, "number out of range");
	bad_str("NaN", 1, 1, "expected a value, found 'N'");
	bad_str("[Infinity]", 1, 2, "expected a value, found 'I'");
	bad_str("tru", 1, 1, "invalid literal");
	bad_str("nul!", 1, 1, "invalid literal");
	bad_str("truex", 1, 5, "unexpected 'x' after the document");
	bad_str("{} {}", 1, 4, "unexpected '{' after the document");
	bad_str("\"abc", 1, 1, "unterminated string");
	bad_str("[\"abc\\\"]", 1, 2, "unterminated string");
	bad_str("\"a\\", 1, 1, "unterminated string");
	bad_str("\"\\x\"", 1, 2, "invalid escape: '\\' followed by 'x'");
	bad_str("\"\\u12\"", 1, 2, "\\u needs four hex digits");
	bad_str("\"\\u12G4\"", 1, 2, "\\u needs four hex digits");
	bad_str("\"\\ud83d\"", 1, 2, "unpaired surrogate \\ud83d");
	bad_str("\"\\ud83d\\u0041\"", 1, 2, "unpaired surrogate");
	bad_str("\"ab\\ude00\"", 1, 4, "unpaired surrogate \\ude00");
	bad_str("\"a\tb\"", 1, 3, "unescaped control character 0x09");
	bad_str("\"\n\"", 1, 2, "unescaped control character 0x0a");
	bad_str("\"\xc3\"", 1, 2, "invalid UTF-8");
	bad_str("\"\xc0\xaf\"", 1, 2, "invalid UTF-8");		/* overlong '/' */
	bad_str("\"\xed\xa0\x80\"", 1, 2, "invalid UTF-8");	/* a surrogate */
	bad_str("\"\xf4\x90\x80\x80\"", 1, 2, "invalid UTF-8");	/* above U+10FFFF */
	bad_str("\"\xe2\x82\xac\" \xe2\x82\xac", 1, 5, "unexpected byte 0xe2");
	bad_str("\xef\xbb\xbf{}", 1, 1, "expected a value, found byte 0xef");
	bad_str("[1]\f", 1, 4, "unexpected byte 0x0c");
	bad_str("// comment\n{}", 1, 1, "expected a value, found '/'");
	bad("[1, \0]", 6, 1, 5, "expected a value, found byte 0x00");
	bad("[1]\0", 4, 1, 4, "unexpected byte 0x00 after the document");
}

/*
 * A key twice in an object is refused at its second place (Python would
 * take the last, vk_jget the first); the same key in other objects is not.
 */
static void test_repeated_keys(void)
{
	static const char *const fine[] = {
		"[{\"a\": 1}, {\"a\": 2}]", "{\"a\": {\"a\": 1}, \"b\": [{\"a\": 2}]}",
		"{\"a\": 1, \"A\": 2, \"a \": 3, \"ab\": 4}",
	};
	enum { MANY = 200000 };
	char *big = malloc(MANY * 16 + 16), *p = big;
	struct vk_jerr err;
	struct vk_jval *v;

	for (size_t i = 0; i < ARRAY_SIZE(fine); i++) {
		v = parse(fine[i], &err);
		CHECK(v != NULL, "no key repeated in one object: %s parses", fine[i]);
		vk_jfree(v);
	}
	bad_str("{\"a\": 1, \"a\": 2}", 1, 10, "the key \"a\" is repeated in an object");
	bad_str("{\"k\": 1, \"j\": 0, \"k\": 2, \"k\": 3}", 1, 18, "the key \"k\" is repeated");
	bad_str("{\"x\": [{\"b\": 1,\n  \"c\": 2, \"b\": 3}]}", 2, 11,
		"the key \"b\" is repeated in an object");
	bad_str("{\"results\": [], \"schema\": \"x\", \"results\": [1]}", 1, 32,
		"the key \"results\" is repeated");
	/* vk_jget() cannot tell keys apart after a \u0000: they count as one. */
	bad_str("{\"a\\u0000b\": 1, \"a\": 2}", 1, 17, "the key \"a\" is repeated");
	bad_str("{\"\\u00e9\\n\": 1, \"\\u00e9\\n\": 2}", 1, 17, "the key \"???\" is repeated");
	/* Found by sorting: a large object costs what its parse does. */
	if (!big) {
		CHECK(0, "memory for the large object");
		return;
	}
	*p++ = '{';
	for (int i = 0; i < MANY; i++)
		p += sprintf(p, "%s\"k%d\":%d", i ? "," : "", i, i);
	strcpy(p, "}");
	v = parse(big, &err);
	CHECK(v && v->n == MANY && vk_jnum(vk_jget(v, "k199999")) == 199999,
	      "an object of %d keys parses", MANY);
	vk_jfree(v);
	strcpy(p, ",\"k123\":0}");
	v = parse(big, &err);
	CHECK(!v && strstr(err.msg, "the key \"k123\" is repeated"),
	      "and one of them again at its end is refused (%s)", v ? "parsed" : err.msg);
	vk_jfree(v);
	free(big);
}

static char *repeat(const char *open, size_t n, const char *close)
{
	size_t lo = strlen(open), lc = strlen(close);
	char *s = malloc(n * (lo + lc) + 1), *p = s;

	if (!s)
		return NULL;
	for (size_t i = 0; i < n; i++, p += lo)
		memcpy(p, open, lo);
	for (size_t i = 0; i < n; i++, p += lc)
		memcpy(p, close, lc);
	*p = '\0';
	return s;
}

static void test_depth(void)
{
	char *ok64 = repeat("[", VK_JMAX_DEPTH, "]");
	char *bad65 = repeat("{\"a\":", VK_JMAX_DEPTH + 1, "}");
	char *bomb = repeat("[", 1000000, "");
	struct vk_jerr err;
	struct vk_jval *v;

	if (!ok64 || !bad65 || !bomb) {
		CHECK(0, "memory for the depth tests");
		return;
	}
	v = parse(ok64, &err);
	CHECK(v != NULL, "arrays nested %d deep parse", VK_JMAX_DEPTH);
	vk_jfree(v);
	bad_str(bad65, 1, 5 * VK_JMAX_DEPTH + 1, "nested deeper than 64 levels");
	bad_str(bomb, 1, VK_JMAX_DEPTH + 1, "nested deeper than 64 levels");
	free(ok64);
	free(bad65);
	free(bomb);
}

/* Every strict prefix of a valid document is an error, found in bounds. */
static void test_truncated(void)
{
	size_t len = strlen(bench), refused = 0;
	struct vk_jerr err;

	for (size_t n = 0; n < len; n++) {
		/* A copy of exactly n bytes, so ASan sees any read past them. */
		char *copy = malloc(n ? n : 1);
		struct vk_jval *v;

		memcpy(copy, bench, n);
		v = vk_jparse(copy, n, &err);
		refused += !v && err.line >= 1 && err.column >= 1;
		vk_jfree(v);
		free(copy);
	}
	CHECK(refused == len, "every one of %zu truncations is refused (%zu were)", len, refused);
}

int main(void)
{
	test_document();
	test_strings();
	test_scalars();
	test_errors();
	test_repeated_keys();
	test_depth();
	test_truncated();
	return test_exit();
}
