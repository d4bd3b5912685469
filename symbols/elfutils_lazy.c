/*
 * elfutils (libdw, libdwfl, libdwelf, libelf), loaded on first use: see
 * lib/lazy_library.h.  Symbols, source lines and DWARF unwinding need it;
 * `record` reads only the program's symbol tables, with libelf alone.  One line per function the
 * tools call; a new call into elfutils that has no line here fails to link.
 */
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <libelf.h>

#include "lazy_library.h"

static struct lazy_library libdw = { "libdw.so.1", "libdw1", 0 };
static struct lazy_library libelf = { "libelf.so.1", "libelf1", 0 };

LAZY_FUNCTION(libdw, Dwarf_Die *, dwarf_addrdie, (Dwarf *dbg, Dwarf_Addr addr, Dwarf_Die *result),
	      (dbg, addr, result))
LAZY_FUNCTION(libdw, Dwarf_Attribute *, dwarf_attr_integrate,
	      (Dwarf_Die *die, unsigned int search_name, Dwarf_Attribute *result),
	      (die, search_name, result))
LAZY_FUNCTION(libdw, Dwarf *, dwarf_begin_elf, (Elf *elf, Dwarf_Cmd cmd, Elf_Scn *scngrp),
	      (elf, cmd, scngrp))
LAZY_FUNCTION(libdw, int, dwarf_cfi_addrframe,
	      (Dwarf_CFI *cache, Dwarf_Addr address, Dwarf_Frame **frame), (cache, address, frame))
LAZY_FUNCTION(libdw, int, dwarf_cfi_end, (Dwarf_CFI *cache), (cache))
LAZY_FUNCTION(libdw, int, dwarf_child, (Dwarf_Die *die, Dwarf_Die *result), (die, result))
LAZY_FUNCTION(libdw, int, dwarf_end, (Dwarf *dwarf), (dwarf))
LAZY_FUNCTION(libdw, const char *, dwarf_formstring, (Dwarf_Attribute *attrp), (attrp))
LAZY_FUNCTION(libdw, int, dwarf_frame_cfa, (Dwarf_Frame *frame, Dwarf_Op **ops, size_t *nops),
	      (frame, ops, nops))
LAZY_FUNCTION(libdw, int, dwarf_frame_info,
	      (Dwarf_Frame *frame, Dwarf_Addr *start, Dwarf_Addr *end, bool *signalp),
	      (frame, start, end, signalp))
LAZY_FUNCTION(libdw, int, dwarf_frame_register,
	      (Dwarf_Frame *frame, int regno, Dwarf_Op ops_mem[3], Dwarf_Op **ops, size_t *nops),
	      (frame, regno, ops_mem, ops, nops))
LAZY_FUNCTION(libdw, Dwarf_CFI *, dwarf_getcfi_elf, (Elf *elf), (elf))
LAZY_FUNCTION(libdw, int, dwarf_getscopes, (Dwarf_Die *cudie, Dwarf_Addr pc, Dwarf_Die **scopes),
	      (cudie, pc, scopes))
LAZY_FUNCTION(libdw, Dwarf_Line *, dwarf_getsrc_die, (Dwarf_Die *cudie, Dwarf_Addr addr),
	      (cudie, addr))
LAZY_FUNCTION(libdw, int, dwarf_getsrclines, (Dwarf_Die *cudie, Dwarf_Lines **lines, size_t *nlines),
	      (cudie, lines, nlines))
LAZY_FUNCTION(libdw, int, dwarf_haspc, (Dwarf_Die *die, Dwarf_Addr pc), (die, pc))
LAZY_FUNCTION(libdw, int, dwarf_lineaddr, (Dwarf_Line *line, Dwarf_Addr *addrp), (line, addrp))
LAZY_FUNCTION(libdw, int, dwarf_lineendsequence, (Dwarf_Line *line, bool *flagp), (line, flagp))
LAZY_FUNCTION(libdw, int, dwarf_lineno, (Dwarf_Line *line, int *linep), (line, linep))
LAZY_FUNCTION(libdw, const char *, dwarf_linesrc,
	      (Dwarf_Line *line, Dwarf_Word *mtime, Dwarf_Word *length), (line, mtime, length))
LAZY_FUNCTION(libdw, int, dwarf_nextcu,
	      (Dwarf *dwarf, Dwarf_Off off, Dwarf_Off *next_off, size_t *header_sizep,
	       Dwarf_Off *abbrev_offsetp, uint8_t *address_sizep, uint8_t *offset_sizep),
	      (dwarf, off, next_off, header_sizep, abbrev_offsetp, address_sizep, offset_sizep))
LAZY_FUNCTION(libdw, Dwarf_Die *, dwarf_offdie, (Dwarf *dbg, Dwarf_Off offset, Dwarf_Die *result),
	      (dbg, offset, result))
LAZY_FUNCTION(libdw, Dwarf_Line *, dwarf_onesrcline, (Dwarf_Lines *lines, size_t idx), (lines, idx))
LAZY_FUNCTION(libdw, ptrdiff_t, dwarf_ranges,
	      (Dwarf_Die *die, ptrdiff_t offset, Dwarf_Addr *basep, Dwarf_Addr *startp,
	       Dwarf_Addr *endp),
	      (die, offset, basep, startp, endp))
LAZY_FUNCTION(libdw, int, dwarf_siblingof, (Dwarf_Die *die, Dwarf_Die *result), (die, result))
LAZY_FUNCTION(libdw, int, dwarf_tag, (Dwarf_Die *die), (die))
LAZY_FUNCTION(libdw, ssize_t, dwelf_elf_gnu_build_id, (Elf *elf, const void **build_idp),
	      (elf, build_idp))

LAZY_FUNCTION(libdw, bool, dwfl_attach_state,
	      (Dwfl *dwfl, Elf *elf, pid_t pid, const Dwfl_Thread_Callbacks *thread_callbacks,
	       void *dwfl_arg),
	      (dwfl, elf, pid, thread_callbacks, dwfl_arg))
LAZY_FUNCTION(libdw, Dwfl *, dwfl_begin, (const Dwfl_Callbacks *callbacks), (callbacks))
LAZY_FUNCTION(libdw, int, dwfl_build_id_find_elf,
	      (Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
	       char **file_name, Elf **elfp),
	      (mod, userdata, modname, base, file_name, elfp))
LAZY_VOID(libdw, dwfl_end, (Dwfl *dwfl), (dwfl))
LAZY_FUNCTION(libdw, const char *, dwfl_errmsg, (int err), (err))
LAZY_FUNCTION(libdw, bool, dwfl_frame_pc, (Dwfl_Frame *state, Dwarf_Addr *pc, bool *isactivation),
	      (state, pc, isactivation))
LAZY_FUNCTION(libdw, int, dwfl_getthread_frames,
	      (Dwfl *dwfl, pid_t tid, int (*callback)(Dwfl_Frame *thread, void *arg), void *arg),
	      (dwfl, tid, callback, arg))
LAZY_FUNCTION(libdw, const char *, dwfl_line_comp_dir, (Dwfl_Line *line), (line))
LAZY_FUNCTION(libdw, const char *, dwfl_lineinfo,
	      (Dwfl_Line *line, Dwarf_Addr *addr, int *linep, int *colp, Dwarf_Word *mtime,
	       Dwarf_Word *length),
	      (line, addr, linep, colp, mtime, length))
LAZY_FUNCTION(libdw, const char *, dwfl_module_addrinfo,
	      (Dwfl_Module *mod, GElf_Addr address, GElf_Off *offset, GElf_Sym *sym,
	       GElf_Word *shndxp, Elf **elfp, Dwarf_Addr *bias),
	      (mod, address, offset, sym, shndxp, elfp, bias))
LAZY_FUNCTION(libdw, int, dwfl_module_build_id,
	      (Dwfl_Module *mod, const unsigned char **bits, GElf_Addr *vaddr), (mod, bits, vaddr))
LAZY_FUNCTION(libdw, Elf *, dwfl_module_getelf, (Dwfl_Module *mod, GElf_Addr *bias), (mod, bias))
LAZY_FUNCTION(libdw, Dwfl_Line *, dwfl_module_getsrc, (Dwfl_Module *mod, Dwarf_Addr addr),
	      (mod, addr))
LAZY_FUNCTION(libdw, const char *, dwfl_module_getsym_info,
	      (Dwfl_Module *mod, int ndx, GElf_Sym *sym, GElf_Addr *addr, GElf_Word *shndxp,
	       Elf **elfp, Dwarf_Addr *bias),
	      (mod, ndx, sym, addr, shndxp, elfp, bias))
LAZY_FUNCTION(libdw, int, dwfl_module_getsymtab, (Dwfl_Module *mod), (mod))
LAZY_FUNCTION(libdw, const char *, dwfl_module_info,
	      (Dwfl_Module *mod, void ***userdata, Dwarf_Addr *start, Dwarf_Addr *end,
	       Dwarf_Addr *dwbias, Dwarf_Addr *symbias, const char **mainfile,
	       const char **debugfile),
	      (mod, userdata, start, end, dwbias, symbias, mainfile, debugfile))
LAZY_FUNCTION(libdw, int, dwfl_offline_section_address,
	      (Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
	       const char *secname, GElf_Word shndx, const GElf_Shdr *shdr, Dwarf_Addr *addr),
	      (mod, userdata, modname, base, secname, shndx, shdr, addr))
LAZY_VOID(libdw, dwfl_report_begin, (Dwfl *dwfl), (dwfl))
LAZY_FUNCTION(libdw, Dwfl_Module *, dwfl_report_elf,
	      (Dwfl *dwfl, const char *name, const char *file_name, int fd, GElf_Addr base,
	       bool add_p_vaddr),
	      (dwfl, name, file_name, fd, base, add_p_vaddr))
LAZY_FUNCTION(libdw, int, dwfl_report_end,
	      (Dwfl *dwfl,
	       int (*removed)(Dwfl_Module *, void *, const char *, Dwarf_Addr, void *arg),
	       void *arg),
	      (dwfl, removed, arg))
LAZY_FUNCTION(libdw, int, dwfl_standard_find_debuginfo,
	      (Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
	       const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
	       char **debuginfo_file_name),
	      (mod, userdata, modname, base, file_name, debuglink_file, debuglink_crc,
	       debuginfo_file_name))
LAZY_VOID(libdw, dwfl_thread_state_register_pc, (Dwfl_Thread *thread, Dwarf_Word pc),
	  (thread, pc))
LAZY_FUNCTION(libdw, bool, dwfl_thread_state_registers,
	      (Dwfl_Thread *thread, int firstreg, unsigned nregs, const Dwarf_Word *regs),
	      (thread, firstreg, nregs, regs))

LAZY_FUNCTION(libelf, Elf *, elf_begin, (int fildes, Elf_Cmd cmd, Elf *ref), (fildes, cmd, ref))
LAZY_FUNCTION(libelf, int, elf_end, (Elf *elf), (elf))
LAZY_FUNCTION(libelf, Elf_Arhdr *, elf_getarhdr, (Elf *elf), (elf))
LAZY_FUNCTION(libelf, Elf_Data *, elf_getdata, (Elf_Scn *scn, Elf_Data *data), (scn, data))
LAZY_FUNCTION(libelf, Elf_Data *, elf_getdata_rawchunk,
	      (Elf *elf, int64_t offset, size_t size, Elf_Type type), (elf, offset, size, type))
LAZY_FUNCTION(libelf, int, elf_getphdrnum, (Elf *elf, size_t *dst), (elf, dst))
LAZY_FUNCTION(libelf, Elf *, elf_memory, (char *image, size_t size), (image, size))
LAZY_FUNCTION(libelf, Elf_Scn *, elf_getscn, (Elf *elf, size_t index), (elf, index))
LAZY_FUNCTION(libelf, int, elf_getshdrnum, (Elf *elf, size_t *dst), (elf, dst))
LAZY_FUNCTION(libelf, int, elf_getshdrstrndx, (Elf *elf, size_t *dst), (elf, dst))
LAZY_FUNCTION(libelf, Elf_Kind, elf_kind, (Elf *elf), (elf))
LAZY_FUNCTION(libelf, size_t, elf_ndxscn, (Elf_Scn *scn), (scn))
LAZY_FUNCTION(libelf, Elf_Cmd, elf_next, (Elf *elf), (elf))
LAZY_FUNCTION(libelf, Elf_Scn *, elf_nextscn, (Elf *elf, Elf_Scn *scn), (elf, scn))
LAZY_FUNCTION(libelf, char *, elf_strptr, (Elf *elf, size_t index, size_t offset),
	      (elf, index, offset))
LAZY_FUNCTION(libelf, unsigned int, elf_version, (unsigned int version), (version))
LAZY_FUNCTION(libelf, GElf_Dyn *, gelf_getdyn, (Elf_Data *data, int ndx, GElf_Dyn *dst),
	      (data, ndx, dst))
LAZY_FUNCTION(libelf, GElf_Ehdr *, gelf_getehdr, (Elf *elf, GElf_Ehdr *dest), (elf, dest))
LAZY_FUNCTION(libelf, GElf_Phdr *, gelf_getphdr, (Elf *elf, int ndx, GElf_Phdr *dst),
	      (elf, ndx, dst))
LAZY_FUNCTION(libelf, GElf_Shdr *, gelf_getshdr, (Elf_Scn *scn, GElf_Shdr *dst), (scn, dst))
LAZY_FUNCTION(libelf, GElf_Rela *, gelf_getrela, (Elf_Data *data, int ndx, GElf_Rela *dst),
	      (data, ndx, dst))
LAZY_FUNCTION(libelf, GElf_Sym *, gelf_getsym, (Elf_Data *data, int ndx, GElf_Sym *dst),
	      (data, ndx, dst))
