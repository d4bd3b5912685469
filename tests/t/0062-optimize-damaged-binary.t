#!/bin/sh
# A binary given to 'optimize --binary' that names no function (none at
# all, or its symbol table lies past the end of a damaged file) is refused
# in one line; one that names none of the profile's functions gives empty
# order files and a warning.  Neither sorts an empty table from a NULL
# array, which the sanitizer build (scripts/test-sanitized.sh) stops on;
# nor does 'record --patch' of a program with no function symbol and no
# call frame information.
. "$(dirname "$0")/lib.sh"

plan 10

build_prog cycle pg -O1 -pg -ffunction-sections
limited "$CS" record -o c.data -- ./pg > /dev/null 2>&1
ok $? "a -pg program is recorded"

# no_function NAME BINARY: refused in one line, with a non-zero exit.
no_function() {
	limited "$CS" optimize -i c.data --binary "$2" -o out > /dev/null 2> err.txt
	rc=$?
	ok $(( rc == 0 || rc >= 124 )) "$1: non-zero exit without crash (got $rc)"
	if [ "$(wc -l < err.txt)" -eq 1 ] &&
	   grep -q "'$2' has no function in its symbol table (.symtab); give the program's binary" err.txt; then
		ok 0 "$1: one clear line"
	else
		ok 1 "$1: one clear line"
		sed 's/^/#   /' err.txt >&2
	fi
}

# a shared object of data alone: a symbol table without functions
printf 'int data_only = 1;\n' > data.c
cc -shared -nostdlib -o data.so data.c
no_function "a binary of data alone" data.so

# the program with its .symtab's file offset pushed past the end of the file
cp pg damaged
shoff=$(readelf -h damaged | awk '/Start of section headers/ { print $5 }')
idx=$(readelf -S -W damaged | sed -n 's/^ *\[ *\([0-9]*\)\] \.symtab .*/\1/p')
# sh_offset is the 8 bytes at 24 of a 64-byte section header; its high half
printf '\377\377\377\177' | dd of=damaged bs=1 seek=$((shoff + 64 * idx + 28)) conv=notrunc status=none
no_function "a damaged symbol table" damaged

# functions, but none the profile called
printf 'int unrelated(void) { return 1; }\n' > other.c
cc -shared -nostdlib -o other other.c
limited "$CS" optimize -i c.data --binary other -o out > /dev/null 2> err.txt
is "$?" 0 "a binary without the profile's functions is laid out (with nothing)"
grep -q "no function of 'other' was called in the profile; the order files are empty" err.txt
ok $? "and a warning says the order files are empty"
[ -f out.order ] && [ ! -s out.order ]
ok $? "the order file is written, empty"

# a program of one entry point in assembly: no function symbol, no FDE
cat > bare.S <<'EOF2'
	.text
	.globl _start
_start:
	and $-16, %rsp
	xor %edi, %edi
	call exit@PLT
	.section .note.GNU-stack,"",@progbits
EOF2
cc -nostartfiles -o bare bare.S && strip bare
limited "$CS" record --patch -o b.data -- ./bare > /dev/null 2> err.txt
is "$?" 0 "record --patch of a program with no function to patch succeeds"
grep -q "patching the entries of 0 of 0 functions" err.txt
ok $? "and says it patched none"
done_testing
