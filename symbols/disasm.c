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
		}
		if (!h)
			error = dlerror();
		else if (!lib.open || !lib.disasm || !lib.free || !lib.close)
			error = DISASM_SONAME " lacks the disassembler's functions";
	}
	if (why)
		*why = error;
	return error ? NULL : &lib;
}
