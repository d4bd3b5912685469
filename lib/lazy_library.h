/*
 * A shared library loaded when one of its functions is first called, not
 * when callscope starts.  Every command paid for the libraries the
 * executable named (elfutils with its compressors, jansson, zlib, libm:
 * 0.5 ms of each start), though `record` needs only libelf, to read the
 * program's symbols; its start and end are part of the time it adds to
 * the program it measures.
 *
 * A file of wrappers defines each function the tools call with the
 * library's own prototype (the header's declaration checks it), and
 * forwards to the library's definition, looked up on the first call:
 *
 *     static struct lazy_library libfoo = { "libfoo.so.1", "libfoo1" };
 *     LAZY_FUNCTION(libfoo, int, foo_open, (const char *path), (path))
 *     LAZY_VOID(libfoo, foo_close, (struct foo *f), (f))
 *
 * Such a library is not linked: it is no longer in the executable's
 * DT_NEEDED list, so packages name it among their dependencies by hand.
 */
#ifndef CALLSCOPE_LIB_LAZY_LIBRARY_H
#define CALLSCOPE_LIB_LAZY_LIBRARY_H

struct lazy_library {
	const char *soname;	/* what dlopen loads, e.g. "libdw.so.1" */
	const char *package;	/* what to install when it is missing */
	void *handle;		/* set on the first call */
};

/*
 * The address of NAME in LIB, loading LIB on the first call; dies with
 * what to install when LIB or NAME cannot be found.
 */
void *lazy_symbol(struct lazy_library *lib, const char *name);

/* LIB's NAME, resolved on the first call; its type is the header's. */
#define LAZY_REAL(lib, name)                                                         \
	({                                                                           \
		static __typeof__(name) *real;                                       \
		__typeof__(name) *f = __atomic_load_n(&real, __ATOMIC_ACQUIRE);      \
		if (!f) {                                                            \
			f = (__typeof__(name) *)lazy_symbol(&lib, #name);            \
			__atomic_store_n(&real, f, __ATOMIC_RELEASE);                \
		}                                                                    \
		f;                                                                   \
	})

/* RET NAME PARAMS defined as a call of LIB's NAME with ARGS. */
#define LAZY_FUNCTION(lib, ret, name, params, args)                                  \
	ret name params                                                              \
	{                                                                            \
		return LAZY_REAL(lib, name) args;                                    \
	}

/* The same for a function that returns nothing. */
#define LAZY_VOID(lib, name, params, args)                                           \
	void name params                                                             \
	{                                                                            \
		LAZY_REAL(lib, name) args;                                           \
	}

#endif
