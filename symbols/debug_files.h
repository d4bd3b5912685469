/*
 * Whether an object's functions can be named: by a symbol table in the
 * file itself, or in a separate debug file found by build ID
 * (/usr/lib/debug/.build-id/xx/rest.debug) or .gnu_debuglink, the way gdb
 * and perf look (libdwfl's standard search; through debuginfod too when
 * DEBUGINFOD_URLS is set).  Without either only the dynamic symbols
 * remain, and the rest of the code is named OBJECT+0xSTART per function.
 */
#ifndef CALLSCOPE_SYMBOLS_DEBUG_FILES_H
#define CALLSCOPE_SYMBOLS_DEBUG_FILES_H

#include <elfutils/libdwfl.h>

/* libdwfl's callbacks for a file on disk that find its debug file. */
extern const Dwfl_Callbacks debug_files_callbacks;

enum object_symbols {
	OBJECT_UNREADABLE = -1,
	OBJECT_DYNAMIC_ONLY = 0,	/* .dynsym at most */
	OBJECT_SYMTAB = 1,		/* its own .symtab */
	OBJECT_DEBUG_FILE = 2,		/* a separate debug file's */
};

/* Where PATH's symbols come from.  *DEBUG_FILE, when not NULL, gets the
 * separate debug file's path (malloc'd, the caller frees) or NULL. */
enum object_symbols object_symbols(const char *path, char **debug_file);

#endif
