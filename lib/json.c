#include "json.h"

#include <math.h>

#include "die.h"

void json_init(struct json *j, FILE *out)
{
	j->out = out;
	j->depth = 0;
	j->need_comma[0] = 0;
	j->after_key = 0;
}

/* Writes the separator a new value needs at the current position. */
static void value_start(struct json *j)
{
	if (j->after_key) {
		j->after_key = 0;
		return;
	}
	if (j->need_comma[j->depth])
		fputc(',', j->out);
	j->need_comma[j->depth] = 1;
}

static void open(struct json *j, char c)
{
	value_start(j);
	if (j->depth + 1 >= JSON_MAX_DEPTH)
		BUG("json nesting deeper than %d", JSON_MAX_DEPTH);
	fputc(c, j->out);
	j->need_comma[++j->depth] = 0;
}

static void close_(struct json *j, char c)
{
	if (j->depth == 0)
		BUG("json close without open");
	j->depth--;
	fputc(c, j->out);
}

void json_object_begin(struct json *j) { open(j, '{'); }
void json_object_end(struct json *j) { close_(j, '}'); }
void json_array_begin(struct json *j) { open(j, '['); }
void json_array_end(struct json *j) { close_(j, ']'); }

static void write_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\t': fputs("\\t", out); break;
		case '\r': fputs("\\r", out); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

void json_key(struct json *j, const char *key)
{
	value_start(j);
	write_string(j->out, key);
	fputc(':', j->out);
	j->after_key = 1;
}

void json_string(struct json *j, const char *s)
{
	value_start(j);
	if (s)
		write_string(j->out, s);
	else
		fputs("null", j->out);
}

void json_u64(struct json *j, uint64_t v)
{
	value_start(j);
	fprintf(j->out, "%llu", (unsigned long long)v);
}

void json_i64(struct json *j, int64_t v)
{
	value_start(j);
	fprintf(j->out, "%lld", (long long)v);
}

void json_double(struct json *j, double v)
{
	value_start(j);
	if (isfinite(v))
		fprintf(j->out, "%.17g", v);
	else
		fputs("null", j->out);
}

void json_bool(struct json *j, int v)
{
	value_start(j);
	fputs(v ? "true" : "false", j->out);
}

void json_finish(struct json *j)
{
	if (j->depth != 0)
		BUG("json document left open at depth %d", j->depth);
	fputc('\n', j->out);
}

void json_kv_string(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_string(j, s);
}

void json_kv_u64(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	json_u64(j, v);
}

void json_kv_u64_known(struct json *j, const char *key, uint64_t v, int known)
{
	json_key(j, key);
	if (known)
		json_u64(j, v);
	else
		json_string(j, NULL);
}

void json_kv_double(struct json *j, const char *key, double v)
{
	json_key(j, key);
	json_double(j, v);
}
