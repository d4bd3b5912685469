#!/bin/sh
# Samples in a program's PLT stubs are named NAME@plt, as objdump, perf
# and gdb name them, not "prog+0x1030": for the layouts gcc and clang
# write on Debian 12 (lazy .plt with its 8-byte .plt.got; IBT's .plt.sec
# with 16-byte .plt.got entries; -z now; lld's entries, which carry no
# entry size), every instruction of the stub sections gets objdump's
# label (tests/symbols/symbolize) unless a real symbol is there, and a
# sampled hot loop of calls through the PLT shows the stubs by name in
# the report, the call graph and the folded stacks, with no unnamed
# address of the program.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/t/lib-plt.sh"

plan 22

for v in $PLT_VARIANTS; do
	build_plt_variant "$v"
	plt_names_match "p-$name" >&2
	ok $? "$name: every PLT instruction named as objdump labels it"

	limited "$CS" record --mode=sample -o "$name.data" -- "./p-$name" 100000000 \
		> out.txt 2> err.txt
	is "$?:$(cat out.txt)" "0:6550000000" "$name: the sampled program runs unharmed"
	"$CS" report -i "$name.data" --json > r.json
	stubs=$(jq '[.functions[] | select(.name == "strlen@plt" or .name == "abs@plt")
		| .self_samples] | add // 0' r.json)
	[ "$stubs" -gt 0 ]
	ok $? "$name: the report names the stubs' samples ($stubs)"
	unnamed=$(jq -r --arg p "p-$name+0x" '.functions[].name | select(startswith($p))' r.json)
	is "$unnamed" "" "$name: no address of the program left unnamed"
	"$CS" export -i "$name.data" -f folded > folded.txt
	grep -q ';main;\(strlen\|abs\)@plt [0-9]' folded.txt
	ok $? "$name: the folded stacks end in the stubs under main"
	"$CS" graph -i "$name.data" | grep -q '^\[[0-9]*\].* \(strlen\|abs\)@plt \['
	ok $? "$name: the call graph has the stubs' entries"
done

# A real symbol at a stub's address is the stub's name: objcopy puts a
# sizeless one on the lazy build's first stub; the stub after it keeps
# its own name, as the symbol says nothing of where it ends.
first=$(objdump -d -j .plt p-lazy | awk '/@plt>:$/ { print $1; exit }')
second=$(printf '%x' $((0x$first + 16)))
objcopy --add-symbol "own_stub=.plt:$((0x$first - 0x$(readelf -SW p-lazy |
	awk '$2 == ".plt" { print $4 }'))),function,global" p-lazy p-own
is "$(printf '%s\n' "$first" | "$SYMBOLIZE" p-own | cut -d' ' -f2)" own_stub \
	"a real symbol at a stub's address names it"
want=$(objdump -d -j .plt p-lazy | awk -v a="$(printf '%016x' 0x$second)" \
	'$1 == a { print substr($2, 2, length($2) - 3) }')
is "$(printf '%s\n' "$second" | "$SYMBOLIZE" p-own | cut -d' ' -f2)" "$want" \
	"the next stub keeps its name ($want)"

lld=
for l in ld.lld-19 ld.lld; do
	command -v "$l" > /dev/null 2>&1 && command -v clang > /dev/null 2>&1 && lld=$l && break
done
if [ -n "$lld" ]; then
	mkdir -p lld && ln -sf "$(command -v "$lld")" lld/ld.lld
	clang -g -O2 -fno-builtin -B lld -fuse-ld=lld -o p-lld "$PROGS/plt_calls.c"
	readelf -SW p-lld | grep -q ' \.plt .* 00  AX '
	ok $? "lld writes its .plt without an entry size"
	plt_names_match p-lld >&2
	ok $? "lld: every PLT instruction named as objdump labels it"
else
	skip "clang with lld is not installed"
	skip "clang with lld is not installed"
fi
done_testing
