#include "symbols/elf_segments.h"

#include <elf.h>
#include <string.h>
#include <unistd.h>

#include "xalloc.h"

size_t elf_segments_read(int fd, struct elf_segment *out, size_t max)
{
	Elf64_Ehdr eh;
	size_t n = 0;

	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum > max)
		return 0;
	Elf64_Phdr *ph = xcalloc(eh.e_phnum + 1, sizeof(*ph));
	size_t bytes = eh.e_phnum * sizeof(Elf64_Phdr);
	if (pread(fd, ph, bytes, (off_t)eh.e_phoff) == (ssize_t)bytes)
		for (size_t i = 0; i < eh.e_phnum; i++)
			if (ph[i].p_type == PT_LOAD)
				out[n++] = (struct elf_segment){ ph[i].p_vaddr, ph[i].p_memsz,
								 ph[i].p_offset, ph[i].p_flags };
	free(ph);
	return n;
}
