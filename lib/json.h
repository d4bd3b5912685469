/*
 * A small streaming JSON writer: commas and nesting are tracked so callers
 * write values in order and never assemble punctuation by hand.
 *
 *   struct json j; json_init(&j, stdout);
 *   json_object_begin(&j); json_key(&j, "calls"); json_u64(&j, 3);
 *   json_object_end(&j); json_finish(&j);
 */
#ifndef CALLSCOPE_LIB_JSON_H
#define CALLSCOPE_LIB_JSON_H

#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 64

struct json {
	FILE *out;
	int depth;
	int need_comma[JSON_MAX_DEPTH];
	int after_key;
};

void json_init(struct json *j, FILE *out);
void json_object_begin(struct json *j);
void json_object_end(struct json *j);
void json_array_begin(struct json *j);
void json_array_end(struct json *j);
void json_key(struct json *j, const char *key);
void json_string(struct json *j, const char *s);	/* NULL writes null */
void json_u64(struct json *j, uint64_t v);
void json_i64(struct json *j, int64_t v);
void json_double(struct json *j, double v);
void json_bool(struct json *j, int v);
/* Ends the document with a newline. */
void json_finish(struct json *j);

/* Shorthands for "key": value inside an object. */
void json_kv_string(struct json *j, const char *key, const char *s);
void json_kv_u64(struct json *j, const char *key, uint64_t v);
/* KEY: V when KNOWN, else null (a number that was not measured) */
void json_kv_u64_known(struct json *j, const char *key, uint64_t v, int known);
void json_kv_double(struct json *j, const char *key, double v);

#endif
