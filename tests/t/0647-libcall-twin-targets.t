#!/bin/sh
# Two library functions whose calls jump to one address keep their own
# names and counts: IFUNCs whose resolvers pick one implementation (glibc
# picks one variant for memcpy and memmove) are two symbols, and each
# one's calls are its own, as the program's PLT entries say, in a trace
# and in count mode alike.
. "$(dirname "$0")/lib.sh"

plan 4
cc -O2 -fPIC -shared -o libtwins.so "$PROGS/libcall_twins_lib.c" || exit 1
cc -O2 -pg -fno-builtin -o twins "$PROGS/libcall_twins.c" -L. -ltwins -Wl,-rpath,'$ORIGIN' || exit 1
counts() {
	"$CS" report -i "$1" --json |
		jq -c '[.functions[] | select(.name | test("^(first|second|memcpy|memmove)$"))
			| [.name, .calls]] | sort'
}
for mode in trace count; do
	limited "$CS" record --mode=$mode -o $mode.data -- ./twins > /dev/null 2>&1
	is "$(counts $mode.data | jq -c '[.[] | select(.[0] == "first" or .[0] == "second")]')" \
		'[["first",3],["second",5]]' \
		"$mode: two IFUNCs resolved to one implementation keep their names and counts"
	is "$(counts $mode.data | jq -c '[.[] | select(.[0] == "memcpy" or .[0] == "memmove")]')" \
		'[["memcpy",7],["memmove",2]]' "$mode: libc's memcpy and memmove are told apart"
done
done_testing
