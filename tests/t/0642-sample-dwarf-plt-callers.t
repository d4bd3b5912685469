#!/bin/sh
# A sample whose PC is in a PLT stub keeps its callers when the analyzer
# unwinds the stack's copy (--stack=dwarf; by default, code loaded with
# dlopen, which the runtime does not walk: Python's extension modules):
# the call frame information of .plt computes the stub's frame from rip,
# which the unwinder must be given as perf gives it.  Without it every
# such sample was a stack of the stub alone.  The stubs' samples, in the
# lazy .plt, under IBT and with -z now, all sit under main, reached from
# _start, as the frame-pointer/CFI walk of the default method has them.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/t/lib-plt.sh"

plan 9

for v in $PLT_VARIANTS; do
	build_plt_variant "$v"

	limited "$CS" record --mode=sample --stack=dwarf -o "$name.data" -- \
		"./p-$name" 100000000 > out.txt 2> err.txt
	is "$?:$(cat out.txt)" "0:6550000000" "$name: the sampled program runs unharmed"
	"$CS" export -i "$name.data" -f folded > folded.txt
	# samples whose innermost frame is a stub, and those of them whose
	# stack runs from _start through main into the stub
	stubs=$(awk '$1 ~ /(^|;)(strlen|abs)@plt$/ { n += $2 } END { print n + 0 }' folded.txt)
	whole=$(awk '$1 ~ /^_start;.*;main;(strlen|abs)@plt$/ { n += $2 } END { print n + 0 }' \
		folded.txt)
	[ "$stubs" -gt 0 ]
	ok $? "$name: samples in the stubs ($stubs)"
	is "$whole" "$stubs" "$name: every stub's sample has its callers, main to _start"
done
done_testing
