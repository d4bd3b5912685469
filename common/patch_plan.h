/*
 * The patch plan: what `callscope record --patch` found it can patch in a
 * program built without hooks, and how.  The launcher reads the machine
 * code (capstone: symbols/ and patch/ on the offline side) and writes the
 * plan as the file PATCH_PLAN_FILE in the recording's staging directory;
 * the contract's field `patch=1` tells the runtime to read it.  The runtime
 * (libc only, no disassembler) then does mechanical work alone: it maps
 * each planned object, checks the bytes it will replace, builds one
 * trampoline per site from the relocated instructions given here, applies
 * the fixups for the trampoline's real address, and writes the jump.
 *
 * All addresses are link-time addresses of the object (as in its ELF
 * file); the runtime adds the load bias it finds with dl_iterate_phdr.
 * Every integer is little-endian, as the machine is; the file is written
 * and read on one machine in one run.
 *
 * Layout (offsets from the start of the file):
 *
 *     struct patch_plan_header
 *     struct patch_plan_object   [nobjects]
 *     struct patch_plan_site     [nsites]      sorted by (object, addr)
 *     struct patch_plan_fixup    [nfixups]
 *     uint8_t code               [code_bytes]  relocated instructions
 *     char    strings            [string_bytes] NUL-terminated paths
 *
 * A reader checks every count and offset against the file's size before
 * use and refuses the whole plan (one line, the program runs untraced)
 * rather than patch from a damaged one.
 */
#ifndef CALLSCOPE_COMMON_PATCH_PLAN_H
#define CALLSCOPE_COMMON_PATCH_PLAN_H

#include <stdint.h>

#define PATCH_PLAN_FILE "patch.plan"
#define PATCH_PLAN_MAGIC "CSPATCH"	/* 7 bytes and the NUL: 8 */
#define PATCH_PLAN_VERSION 2

/* The longest window a site displaces, and its original bytes kept. */
#define PATCH_WINDOW_MAX 16

struct patch_plan_header {
	char magic[8];
	uint32_t version;
	uint32_t nobjects;
	uint32_t nsites;
	uint32_t nfixups;
	uint32_t code_bytes;
	uint32_t string_bytes;
};

/*
 * One object to patch.  The runtime matches a loaded object by build ID
 * when the file has one (build_id_len > 0), else by its path; an object
 * that is not loaded at start-up is patched when dlopen loads it.
 */
struct patch_plan_object {
	uint32_t path;		/* offset in strings */
	uint32_t build_id_len;	/* 0..20 */
	uint8_t build_id[20];
	uint32_t first_site;	/* its sites: [first_site, first_site + nsites) */
	uint32_t nsites;
};

/* How the entry reaches the trampoline. */
enum patch_site_kind {
	PATCH_JMP32 = 1,	/* `jmp rel32` over the first window bytes at addr */
	PATCH_INT3 = 2,		/* `int3` over the first instruction, whose trap the
				 * runtime's SIGTRAP handler turns into the jump (a
				 * microsecond or so a call: only where no jump fits) */
	PATCH_JMP8 = 3,		/* `jmp rel8` over the first window bytes, to a
				 * `jmp rel32` written at `island` */
};

/* What the entry hook needs to know of a site's function. */
enum patch_site_flags {
	PATCH_SELF_TAIL = 1 << 0,	/* a jump back to its entry after its
					 * epilogue is a tail call to itself,
					 * not a loop: a new call */
};

/* The bytes of the jump a PATCH_JMP8 site's island holds. */
#define PATCH_ISLAND 5

/*
 * One function entry.  `function` names the function in the recording (the
 * address the runtime passes as the function's, as __fentry__ would);
 * `addr` is where the jump is written: the entry, or just after its
 * endbr64.  The trampoline runs the entry hook, then `code` (the window's
 * instructions, relocated), then jumps to `resume` unless the code ends in
 * an unconditional jump or return (resume = 0).
 *
 * A PATCH_JMP8 site's island lies within a rel8 of its jump: in the
 * alignment padding between two functions (its bytes then in
 * island_original), or in the window of another site of the object past
 * that site's own 5-byte jump (bytes never run once that site is
 * patched); nothing branches into it.
 */
struct patch_plan_site {
	uint64_t function;
	uint64_t addr;
	uint64_t resume;
	uint32_t code;		/* offset in the code pool */
	uint32_t code_len;
	uint32_t first_fixup;	/* its fixups: [first_fixup, first_fixup + nfixups) */
	uint32_t nfixups;
	uint8_t kind;		/* enum patch_site_kind */
	uint8_t window;		/* bytes replaced at addr, 5..PATCH_WINDOW_MAX;
				 * 1.. for PATCH_INT3 (its first instruction),
				 * 2.. for PATCH_JMP8 */
	uint8_t original[PATCH_WINDOW_MAX];	/* what must be there before */
	uint8_t island_original[PATCH_ISLAND];	/* PATCH_JMP8 in padding */
	uint8_t flags;		/* enum patch_site_flags */
	uint64_t island;	/* PATCH_JMP8: where its jmp rel32 goes */
};

/*
 * A 32-bit field in a site's relocated code that must reach a link-time
 * address once the code's real place is known: a RIP-relative disp32 or a
 * rel32 of a jmp, jcc or call.  The runtime writes
 *     target + bias - (code_address + insn_end)
 * at code offset `at`, and refuses the site if it does not fit in 32 bits.
 */
struct patch_plan_fixup {
	uint64_t target;
	uint32_t at;		/* offset of the field within the site's code */
	uint32_t insn_end;	/* offset where that instruction ends */
};

/*
 * What the runtime refused to patch, which the launcher adds to the
 * recording's list of skipped functions: the file PATCH_REFUSED_FILE in
 * the staging directory, struct patch_refusal records appended (by each
 * process that applied the plan).
 */
#define PATCH_REFUSED_FILE "patch.refused"

/*
 * Why the runtime refused a site: its enum name, its code (stored by the
 * launcher as PATCH_SKIP_REFUSED + code, patch/skip.h: never renumber one,
 * only add), and the phrase both the runtime's warning ("N function(s) of
 * 'PATH' left unpatched, untraced: PHRASE") and `callscope info` ("refused
 * at run time: PHRASE") show.
 */
#define SITE_REFUSAL_LIST(X) \
	X(SITE_OUTSIDE_TEXT, 1, "its bytes are not in the loaded code") \
	X(SITE_PROGRAM_ENTRY, 2, "the program's entry point") \
	X(SITE_BYTES_DIFFER, 3, "the loaded code differs from the file's") \
	X(SITE_TOO_LONG, 4, "relocated code too long for a trampoline") \
	X(SITE_OUT_OF_REACH, 5, "out of reach of its trampoline") \
	X(SITE_NO_POOL, 6, "no trampoline memory within reach") \
	X(SITE_NOT_WRITABLE, 7, "its code could not be made writable") \
	X(SITE_NO_TRAP, 8, "no SIGTRAP handler for its trap")

enum site_refusal {
	SITE_OK = 0,
#define SITE_REFUSAL_ENUM(name, code, phrase) name = code,
	SITE_REFUSAL_LIST(SITE_REFUSAL_ENUM)
#undef SITE_REFUSAL_ENUM
	SITE_REFUSALS		/* one past the last code */
};

struct patch_refusal {
	uint32_t site;		/* index in the plan's site table */
	uint32_t why;		/* enum site_refusal */
};

#endif
