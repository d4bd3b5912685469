/*
 * symbolize OBJECT < ADDRESSES: names link-time addresses of OBJECT (an
 * executable or shared library) as every report does, through symtab
 * with OBJECT mapped at its link-time addresses.  Reads one hexadecimal
 * address a line and prints "ADDRESS NAME" for each, so that a test can
 * hold the names against another tool's (objdump's labels) for addresses
 * no run would sample.  Exits 1 when OBJECT cannot be read.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "symbols/symtab.h"

int main(int argc, char **argv)
{
	char line[64];

	if (argc != 2) {
		fprintf(stderr, "usage: symbolize OBJECT < ADDRESSES\n");
		return 2;
	}
	struct symtab *st = symtab_new();
	if (symtab_add_object(st, argv[1], 0, NULL, 0, NULL, 0) != 0)
		return 1;
	while (fgets(line, sizeof(line), stdin)) {
		char *end;
		uint64_t addr = strtoull(line, &end, 16);
		if (end == line)
			continue;
		struct symbol_info si;
		symtab_lookup(st, addr, 0, &si);
		printf("%" PRIx64 " %s\n", addr, si.name);
	}
	symtab_free(st);
	return 0;
}
