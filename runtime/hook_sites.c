/*
 * Whether an mcount hook that looks like a tail call is the hook of a
 * function inlined into the caller's own function instead.
 *
 * clang's link-time optimizer (-flto -pg) inlines functions whose call to
 * mcount is in place already, and keeps those calls: they run in the
 * middle of the function the copy went into, with that function's frame.
 * To the hooks they look like a tail call (the frame is where the
 * innermost open one is, its return already leads to the trampoline), so
 * every pass through the copy would open one more frame of the enclosing
 * function, for as long as it runs: a loop in an interpreter's main
 * function piled up 130 822 of them.  A true tail call enters a function
 * of its own; an inlined copy's hook lies inside the function of the
 * innermost frame, at another call site.  The call frame information
 * tells which function holds a site: the FDE covering it begins where the
 * function does.  Each site's function is looked up once, through
 * _dl_find_object (no lock, no allocation: safe in a hook that interrupted
 * malloc), and kept in a table of the thread's own.
 */
#define _GNU_SOURCE
#include "runtime.h"
#include "eh_frame.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <string.h>

/* Where the function holding SITE begins, by the FDE covering it in the
 * object that holds it; 0 when none does. */
static uintptr_t function_start(uintptr_t site)
{
	struct dl_find_object found;

	if (_dl_find_object((void *)site, &found) != 0 || !found.dlfo_link_map)
		return 0;
	/* the program headers, from the ELF header the object's first
	 * segment maps, say where its search table and segments lie */
	const ElfW(Ehdr) *eh = found.dlfo_map_start;
	if ((uintptr_t)found.dlfo_map_end - (uintptr_t)eh < sizeof(*eh) ||
	    memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_phentsize != sizeof(ElfW(Phdr)) ||
	    eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(ElfW(Phdr)) >
		    (uintptr_t)found.dlfo_map_end - (uintptr_t)eh)
		return 0;
	struct dl_phdr_info info = {
		.dlpi_addr = found.dlfo_link_map->l_addr,
		.dlpi_phdr = (const ElfW(Phdr) *)((const uint8_t *)eh + eh->e_phoff),
		.dlpi_phnum = eh->e_phnum,
	};
	struct eh_table table;
	return eh_table_find(&info, &table) ? 0 : eh_function_start(&table, site);
}

/* function_start() of S->site into S->start, through
 * callscope_call_keeping_vectors(). */
static int look_up(void *arg)
{
	struct hook_site *s = arg;

	s->start = function_start(s->site);
	return 0;
}

/* SITE's slot in T's table, holding its function's start once looked up.
 * The lookup calls into libc, which may use the vector registers: they
 * hold the arguments of the function whose hook this is (a double), so
 * their state is kept around it. */
static struct hook_site *slot_of(struct thread_state *t, uintptr_t site)
{
	struct hook_site *s = &t->sites[hook_site_index(site)];

	if (s->site != site) {
		s->site = site;
		callscope_call_keeping_vectors(look_up, s);
	}
	return s;
}

int hook_site_inlined(struct thread_state *t, uintptr_t site, uintptr_t open_site)
{
	if (site == open_site || !t->sites)
		return 0;
	uintptr_t start = slot_of(t, site)->start;
	return start && start == slot_of(t, open_site)->start;
}
