/*
 * Handing the runtime's unwind information (unwind_info.c) to the
 * unwinders.
 *
 * libgcc's: through __register_frame, looked up at run time (the runtime
 * depends on libc alone, and a C program may load libgcc only later, for
 * backtrace() or thread cancellation: what was made before is registered
 * when a later dlopen shows it loaded).
 *
 * gdb's: through its JIT interface.  Each piece of unwind information is
 * wrapped in a small ELF object in memory (its .eh_frame, a .text section
 * naming the code's addresses without holding it, and a symbol per
 * trampoline), linked into __jit_debug_descriptor, and announced by
 * calling __jit_debug_register_code, where gdb keeps a breakpoint.  Both
 * names are the interface's; they stay out of the runtime's exports, so
 * that a program with a JIT of its own (LLVM, in a library) keeps its own
 * descriptor: gdb reads each object's.
 */
#define _GNU_SOURCE
#include "patch.h"

#include <dlfcn.h>
#include <elf.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>

/* gdb's JIT interface (gdb/jit.h, "JIT Interface" in gdb's manual) */
enum { JIT_NOACTION = 0, JIT_REGISTER_FN = 1 };
struct jit_code_entry {
	struct jit_code_entry *next_entry;
	struct jit_code_entry *prev_entry;
	const char *symfile_addr;
	uint64_t symfile_size;
};
struct jit_descriptor {
	uint32_t version;
	uint32_t action_flag;
	struct jit_code_entry *relevant_entry;
	struct jit_code_entry *first_entry;
};

extern struct jit_descriptor __jit_debug_descriptor;
void __jit_debug_register_code(void);

struct jit_descriptor __jit_debug_descriptor = { 1, JIT_NOACTION, NULL, NULL };

__attribute__((noinline, used)) void __jit_debug_register_code(void)
{
	/* gdb's breakpoint lands here: the call must stay */
	__asm__ volatile("" ::: "memory");
}

/* One registered piece: its ELF image (the .eh_frame inside it is what
 * libgcc gets) and its place in gdb's list. */
struct unwind_object {
	struct jit_code_entry entry;
	struct unwind_object *next;
	uint8_t *eh_frame;
	int given_to_libgcc;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct unwind_object *objects;

static const char shstrtab[] = "\0.text\0.eh_frame\0.symtab\0.strtab\0.shstrtab";
enum { SH_TEXT = 1, SH_EH_FRAME = 7, SH_SYMTAB = 17, SH_STRTAB = 25, SH_SHSTRTAB = 33 };
static const char strtab[] = "\0callscope_trampoline";
enum { SECTIONS = 6 };

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* libgcc's, once found loaded */
static void (*register_frame)(void *);

static void give_to_libgcc(struct unwind_object *o)
{
	if (!register_frame || o->given_to_libgcc)
		return;
	register_frame(o->eh_frame);
	o->given_to_libgcc = 1;
}

void unwind_register_pending(void)
{
	/* dlsym takes the loader's lock: never under ours */
	void *found = register_frame ? NULL : dlsym(RTLD_DEFAULT, "__register_frame");

	pthread_mutex_lock(&lock);
	if (found && !register_frame)
		register_frame = (void (*)(void *))found;
	for (struct unwind_object *o = objects; o; o = o->next)
		give_to_libgcc(o);
	pthread_mutex_unlock(&lock);
}

void unwind_register(const struct eh_frame *f, uintptr_t text, size_t text_len,
		     uintptr_t first_slot, size_t slot_size, uint32_t nslots)
{
	if (f->failed || !f->len)
		return;
	size_t eh_at = align8(sizeof(struct unwind_object) + sizeof(Elf64_Ehdr));
	size_t sym_at = align8(eh_at + f->len);
	size_t nsyms = (size_t)nslots + 1;
	size_t str_at = sym_at + nsyms * sizeof(Elf64_Sym);
	size_t shstr_at = str_at + sizeof(strtab);
	size_t sh_at = align8(shstr_at + sizeof(shstrtab));
	size_t size = sh_at + SECTIONS * sizeof(Elf64_Shdr);
	uint8_t *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return;
	struct unwind_object *o = (struct unwind_object *)m;
	uint8_t *elf = m + sizeof(*o);
	size_t base = sizeof(*o);	/* file offsets count from elf */

	Elf64_Ehdr *eh = (Elf64_Ehdr *)elf;
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	/* relocatable: section addresses are where the sections lie, symbol
	 * values offsets in their section, as JITs hand gdb their code */
	eh->e_type = ET_REL;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_shoff = sh_at - base;
	eh->e_ehsize = sizeof(Elf64_Ehdr);
	eh->e_shentsize = sizeof(Elf64_Shdr);
	eh->e_shnum = SECTIONS;
	eh->e_shstrndx = SECTIONS - 1;

	memcpy(m + eh_at, f->data, f->len);
	Elf64_Sym *sym = (Elf64_Sym *)(m + sym_at);
	for (uint32_t i = 0; i < nslots; i++) {
		sym[i + 1].st_name = 1;
		sym[i + 1].st_info = ELF64_ST_INFO(STB_LOCAL, STT_FUNC);
		sym[i + 1].st_shndx = 1;
		sym[i + 1].st_value = first_slot - text + (uint64_t)i * slot_size;
		sym[i + 1].st_size = slot_size;
	}
	memcpy(m + str_at, strtab, sizeof(strtab));
	memcpy(m + shstr_at, shstrtab, sizeof(shstrtab));

	Elf64_Shdr *sh = (Elf64_Shdr *)(m + sh_at);
	sh[1] = (Elf64_Shdr){ .sh_name = SH_TEXT, .sh_type = SHT_NOBITS,
			      .sh_flags = SHF_ALLOC | SHF_EXECINSTR, .sh_addr = text,
			      .sh_size = text_len, .sh_addralign = 16 };
	sh[2] = (Elf64_Shdr){ .sh_name = SH_EH_FRAME, .sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC,
			      .sh_addr = (uintptr_t)(m + eh_at), .sh_offset = eh_at - base,
			      .sh_size = f->len, .sh_addralign = 8 };
	sh[3] = (Elf64_Shdr){ .sh_name = SH_SYMTAB, .sh_type = SHT_SYMTAB, .sh_offset = sym_at - base,
			      .sh_size = nsyms * sizeof(Elf64_Sym), .sh_link = 4,
			      .sh_info = (uint32_t)nsyms, .sh_addralign = 8,
			      .sh_entsize = sizeof(Elf64_Sym) };
	sh[4] = (Elf64_Shdr){ .sh_name = SH_STRTAB, .sh_type = SHT_STRTAB,
			      .sh_offset = str_at - base, .sh_size = sizeof(strtab),
			      .sh_addralign = 1 };
	sh[5] = (Elf64_Shdr){ .sh_name = SH_SHSTRTAB, .sh_type = SHT_STRTAB,
			      .sh_offset = shstr_at - base, .sh_size = sizeof(shstrtab),
			      .sh_addralign = 1 };

	o->eh_frame = m + eh_at;
	o->entry.symfile_addr = (const char *)elf;
	o->entry.symfile_size = size - base;

	pthread_mutex_lock(&lock);
	o->next = objects;
	objects = o;
	give_to_libgcc(o);
	o->entry.next_entry = __jit_debug_descriptor.first_entry;
	if (o->entry.next_entry)
		o->entry.next_entry->prev_entry = &o->entry;
	__jit_debug_descriptor.first_entry = &o->entry;
	__jit_debug_descriptor.relevant_entry = &o->entry;
	__jit_debug_descriptor.action_flag = JIT_REGISTER_FN;
	__jit_debug_register_code();
	__jit_debug_descriptor.action_flag = JIT_NOACTION;
	pthread_mutex_unlock(&lock);
}

/* The return points the runtime writes into return-address slots (-pg's
 * redirected returns, library calls, dlopen's), for unwinders that meet
 * them on the stack. */
void unwind_describe_return_points(void)
{
	extern char callscope_return_trampoline[] HIDDEN;
	extern char callscope_libcall_load_return[] HIDDEN;
	struct eh_frame f;

	unwind_register_pending();
	eh_frame_begin(&f);
	eh_frame_return_point(&f, (uintptr_t)callscope_return_trampoline);
	eh_frame_return_point(&f, (uintptr_t)callscope_libcall_load_return);
	eh_frame_end(&f);
	unwind_register(&f, 0, 0, 0, 0, 0);
	eh_frame_release(&f);
}
