/*
 * Library calls: calls that leave an object with hooks through its PLT or
 * GOT (strcmp, malloc, qsort, sqrt...) enter the same shadow stack as the
 * compiler hooks, named by the symbol they call.  patch.c finds the GOT
 * slots and points each at a stub; enter.c is what a stub reaches.
 */
#ifndef CALLSCOPE_RUNTIME_LIBCALL_H
#define CALLSCOPE_RUNTIME_LIBCALL_H

#include "../runtime.h"

#include <link.h>

/* How a library function leaves, which decides how its call is seen. */
enum libcall_kind {
	LIBCALL_RETURNS = 0,	/* its return is redirected and seen */
	LIBCALL_LOADS,		/* dlopen: and new objects are hooked on return */
	LIBCALL_NEVER_RETURNS,	/* exit, longjmp, __cxa_throw: the frame stays
				 * open until stack repair or the end closes it */
	LIBCALL_RETURNS_TWICE,	/* setjmp, vfork: a return address saved by the
				 * callee must stay real; seen as a call of no time */
};

/* One function reached through hooked slots.  The stub hands it to the
 * assembly in %r11, which jumps to `jump` (keep it first). */
struct libcall_target {
	uint64_t jump;		/* where the call goes (an IFUNC resolved) */
	uint64_t id;		/* the address naming it: its symbol's value */
	uint32_t kind;		/* enum libcall_kind */
	uint32_t unused;
};

/* patch.c: hooks the slots of every object with hooks not yet hooked,
 * when the launcher asked for library calls (the first call reads its
 * setting).  Takes the loader's lock: never from a signal handler. */
HIDDEN void libcall_install(void);
/* Nonzero when the launcher asked for library calls. */
HIDDEN int libcall_traced(void);

/* Nonzero when the loaded object INFO describes has hooks (the runtime
 * itself has none): its calls into other objects are library calls, and
 * time in an object without them belongs to the functions there.  Reads
 * its dynamic section; not for a signal handler. */
HIDDEN int libcall_object_hooked(const struct dl_phdr_info *info);

/* kinds.c */
HIDDEN enum libcall_kind libcall_kind_of(const char *name);
/* Nonzero for symbols never traced as library calls: the hooks and the
 * start-up code's own. */
HIDDEN int libcall_ignored(const char *name);
/* Nonzero for the runtime's stand-ins traced as library calls (signal,
 * pthread_create...). */
HIDDEN int libcall_stand_in_traced(const char *name);
/* Nonzero if SPEC (the launcher's comma-separated list, NULL for all)
 * selects function NAME defined in the object at path OBJECT. */
HIDDEN int libcall_selected(const char *spec, const char *name, const char *object);

/* slot_reads.c: an object's code, one executable segment */
struct libcall_code {
	uintptr_t lo, hi;
};

/* Sorts the N addresses of GOT SLOTS and marks (bit 0) each that the
 * CODE (NCODE segments) reads other than by calling or jumping through
 * it: its function's address is taken there. */
HIDDEN void libcall_mark_slot_reads(uintptr_t *slots, size_t n, const struct libcall_code *code,
				    size_t ncode);
/* Nonzero unless SLOT is one of the N SLOTS so sorted and not marked:
 * pointing it at a stub could change what the program computes. */
HIDDEN int libcall_slot_read(const uintptr_t *slots, size_t n, uintptr_t slot);

/* enter.c: what arch/x86_64/libcall.S calls */
HIDDEN void callscope_libcall_enter(uintptr_t *ret_slot, const struct libcall_target *lt);
HIDDEN uintptr_t callscope_libcall_loaded(uintptr_t slot, const void *handle);

/* arch/x86_64/libcall.S */
extern char callscope_libcall_entry[] HIDDEN;
extern char callscope_libcall_load_return[] HIDDEN;
extern char callscope_return_trampoline[] HIDDEN;

#endif
