/*
 * jansson, loaded on first use (see lib/lazy_library.h): only gcov's JSON
 * report (annotate --counts) is read with it.
 */
#include <jansson.h>

#include "lazy_library.h"

static struct lazy_library libjansson = { "libjansson.so.4", "libjansson4", 0 };

LAZY_FUNCTION(libjansson, json_t *, json_array_get, (const json_t *array, size_t index),
	      (array, index))
LAZY_FUNCTION(libjansson, size_t, json_array_size, (const json_t *array), (array))
LAZY_VOID(libjansson, json_delete, (json_t *json), (json))
LAZY_FUNCTION(libjansson, json_int_t, json_integer_value, (const json_t *integer), (integer))
LAZY_FUNCTION(libjansson, json_t *, json_loads, (const char *input, size_t flags, json_error_t *error),
	      (input, flags, error))
LAZY_FUNCTION(libjansson, json_t *, json_object_get, (const json_t *object, const char *key),
	      (object, key))
LAZY_FUNCTION(libjansson, const char *, json_string_value, (const json_t *string), (string))
