#!/bin/sh
# A library call named by an IFUNC (glibc's strlen, strcmp, strcpy) runs
# the variant its resolver chose, whose code the recording does not name:
# the exports give it no source file, where they gave the resolver's
# (ifunc-avx2.h, where libc's debug information is installed), which is
# not the code that ran (callgrind names the variant, __strlen_avx2 in
# strlen-avx2.S).  Functions named by plain symbols keep their files.
. "$(dirname "$0")/lib.sh"

if ! command -v callgrind_annotate >/dev/null 2>&1; then
	echo "1..0 # skip callgrind_annotate (valgrind) is not installed"
	exit 0
fi

plan 4
cc -g -O2 -pg -o lc "$PROGS/libcall.c" -lm || exit 1
limited "$CS" record -o l.data -- ./lc > /dev/null 2>&1
"$CS" export -i l.data --format=callgrind -o cg.out
ok $? "export writes callgrind.out"
callgrind_annotate --threshold=100 cg.out > ann.txt 2> err.txt
libc=$(ldd ./lc | awk '$1 ~ /^libc\.so/ { print $3 }')
# file_of NAME: the file callgrind_annotate shows NAME in
file_of() {
	awk -v f="$1" '{ for (i = 2; i <= NF; i++) if ($i ~ ":" f "$") {
		sub(":" f "$", "", $i); print $i; exit } }' ann.txt
}
for name in strlen strcmp; do
	if ! readelf -W --dyn-syms "$libc" | grep -Eq " IFUNC .* $name@@"; then
		skip "$name is no IFUNC in $libc"
		continue
	fi
	is "$(file_of "$name")" "???" "$name (an IFUNC): no file, not its resolver's"
done
is "$(file_of main)" "$PROGS/libcall.c" "main keeps its file"
done_testing
