/*
 * The loadable segments (PT_LOAD program headers) of an ELF file on disk,
 * for placing a running process's mapped objects: the segment whose file
 * offset a mapping starts at gives the object's load bias.
 */
#ifndef CALLSCOPE_SYMBOLS_ELF_SEGMENTS_H
#define CALLSCOPE_SYMBOLS_ELF_SEGMENTS_H

#include <stddef.h>
#include <stdint.h>

struct elf_segment {
	uint64_t vaddr;		/* link-time address */
	uint64_t memsz;
	uint64_t offset;	/* in the file */
	uint32_t flags;		/* PF_X | PF_W | PF_R */
};

/*
 * Reads the PT_LOAD segments of the 64-bit ELF file open on FD into OUT
 * (MAX entries).  Returns how many, or 0 when FD holds no such file or
 * more than MAX program headers.  Reads with pread(): FD's offset stays.
 */
size_t elf_segments_read(int fd, struct elf_segment *out, size_t max);

#endif
