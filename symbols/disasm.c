#include "symbols/disasm.h"

#include <dlfcn.h>
#include <stddef.h>

#define STR(x) #x
#define XSTR(x) STR(x)
/* the library of the version the headers describe */
#define DISASM_SONAME "libcapstone.so." XSTR(CS_API_MAJOR)

const struct disasm *disasm_library(const char **why)
{
	static struct disasm lib;
	static const char *error;
	static int tried;

	if (!tried) {
		tried = 1;
		void *h = dlopen(DISASM_SONAME, RTLD_NOW | RTLD_LOCAL);
		if (h) {
			lib.open = (cs_err (*)(cs_arch, cs_mode, csh *))dlsym(h, "cs_open");
			lib.disasm = (size_t (*)(csh, const uint8_t *, size_t, uint64_t, size_t,
						 cs_insn **))dlsym(h, "cs_disasm");
			lib.free = (void (*)(cs_insn *, size_t))dlsym(h, "cs_free");
			lib.close = (cs_err (*)(csh *))dlsym(h, "cs_close");
			lib.option = (cs_err (*)(csh, cs_opt_type, size_t))dlsym(h, "cs_option");
			lib.malloc = (cs_insn * (*)(csh))dlsym(h, "cs_malloc");
			lib.disasm_iter = (bool (*)(csh, const uint8_t **, size_t *, uint64_t *,
						    cs_insn *))dlsym(h, "cs_disasm_iter");
			lib.insn_group = (bool (*)(csh, const cs_insn *, unsigned int))dlsym(
				h, "cs_insn_group");
		}
		if (!h)
			error = dlerror();
		else if (!lib.open || !lib.disasm || !lib.free || !lib.close || !lib.option ||
			 !lib.malloc || !lib.disasm_iter || !lib.insn_group)
			error = DISASM_SONAME " lacks the disassembler's functions";
	}
	if (why)
		*why = error;
	return error ? NULL : &lib;
}
