#ifndef CALLSCOPE_SYMBOLS_DISASM_H
#define CALLSCOPE_SYMBOLS_DISASM_H

/*
 * The disassembler (capstone), loaded the first time a command needs it.
 * Linked in, its 77 000 relocations cost every start of every command
 * about a millisecond of CPU, `record` included, where it is never used.
 */
#include <capstone/capstone.h>

struct disasm {
	cs_err (*open)(cs_arch arch, cs_mode mode, csh *handle);
	size_t (*disasm)(csh handle, const uint8_t *code, size_t size, uint64_t address,
			 size_t count, cs_insn **insn);
	void (*free)(cs_insn *insn, size_t count);
	cs_err (*close)(csh *handle);
	/* for reading instruction by instruction with details (patch/) */
	cs_err (*option)(csh handle, cs_opt_type type, size_t value);
	cs_insn *(*malloc)(csh handle);
	bool (*disasm_iter)(csh handle, const uint8_t **code, size_t *size, uint64_t *address,
			    cs_insn *insn);
	bool (*insn_group)(csh handle, const cs_insn *insn, unsigned int group_id);
};

/* The library's entry points, or NULL (with the reason in *WHY) when it
 * cannot be loaded. */
const struct disasm *disasm_library(const char **why);

#endif
