#!/bin/sh
# The order files with each real linker, and fixed groups: a program whose
# library file is built without -ffunction-sections (so its functions share
# one input section), learned from a linker map or from the objects.  Each
# linker that is installed links the program in the order callscope wrote;
# the ones that are not are skipped.
. "$(dirname "$0")/lib.sh"

plan 26

cc -O2 -g -ffunction-sections -c "$PROGS/opt_main.c" -o opt_main.o
cc -O2 -g -c "$PROGS/opt_lib.c" -o opt_lib.o
ar rcs libopt.a opt_lib.o
cc -o prog opt_main.o libopt.a -Wl,-Map=prog.map
cc -O2 -g -pg -ffunction-sections -o prog-pg "$PROGS/opt_main.c" "$PROGS/opt_lib.c"
limited "$CS" record -o p.data -- ./prog-pg 2000 >expected.txt 2>/dev/null
ok $? "recorded"
expected=$(./prog 2000)

# Groups from the map.
"$CS" optimize -i p.data --binary prog --map prog.map -o m >opt.out 2>opt.err
ok $? "optimize with --map"
grep -q '^ *[0-9]*  \[fixed group\] .* \.text (libopt\.a(opt_lib\.o))' m.lor
ok $? "the library's section is one fixed group in a clique"
sed -n '/^fixed groups/,$p' m.lor | grep -q 'lib_cold  lib_hot  lib_warm'
ok $? "the fixed group lists its three functions in address order"
lines=$(grep -n -E '^lib_(cold|hot|warm)$' m.order | cut -d: -f1 | tr '\n' ' ')
first=${lines%% *}
is "$lines" "$first $((first + 1)) $((first + 2)) " "the group's functions stay together in the order"
grep -q 'checked\.cold .*\.text\.unlikely\.checked (opt_main\.o)' m.lor
ok $? "checked.cold is named with its real section, .text.unlikely.checked"
grep -q '^    \*(\.text\.startup\.main)$' m.ld && ! grep -q '\.text\.main' m.ld
ok $? "the ld script names main's section .text.startup.main"
grep -q '^    libopt\.a:opt_lib\.\[o\](\.text)$' m.ld
ok $? "the ld script names the library member's .text by file"
grep -q 'never_called ' m.lor
ok $? "the uncalled function is listed"

# The same groups from the objects and the archive.
"$CS" optimize -i p.data --binary prog --objects opt_main.o libopt.a -o o >/dev/null 2>&1
ok $? "optimize with --objects"
grep -q '\[fixed group\] .* \.text (libopt\.a(opt_lib\.o))' o.lor
ok $? "the objects give the same fixed group"
cmp -s m.order o.order
ok $? "and the same order as the map"

# Without either: one function per section is assumed, and said.
"$CS" optimize -i p.data --binary prog -o n >/dev/null 2>n.err
grep -q 'assuming one function per input section' n.err && [ ! -e n.ld ] && [ ! -e n.gold-order ]
ok $? "without map or objects the assumption is stated and no section files are written"

# in_order BINARY ORDER: 0 if the functions of ORDER that BINARY has come
# in that order by address.
in_order() {
	nm -n "$1" | awk '{ print $3 }' | grep -Fx -f "$2" >by-address.txt
	grep -Fx -f by-address.txt "$2" | cmp -s - by-address.txt
}

# GNU ld with the script.
cc -o prog-bfd opt_main.o libopt.a -Wl,-T,m.ld
ok $? "GNU ld links with the script"
is "$(./prog-bfd 2000)" "$expected" "the GNU ld build computes the same"
in_order prog-bfd m.order
ok $? "GNU ld placed the functions in the order"

# gold with the section ordering file.
if command -v ld.gold >/dev/null 2>&1; then
	cc -fuse-ld=gold -o prog-gold opt_main.o libopt.a -Wl,--section-ordering-file=m.gold-order
	ok $? "gold links with the section ordering file"
	is "$(./prog-gold 2000)" "$expected" "the gold build computes the same"
	grep -v -e '^lib_' -e '^main$' m.order >gold-part.order
	in_order prog-gold gold-part.order
	ok $? "gold placed the named sections in the order"
else
	skip "ld.gold is not installed (binutils)"
	skip "ld.gold is not installed (binutils)"
	skip "ld.gold is not installed (binutils)"
fi

# lld with the symbol ordering file and with the call graph.
lld=""
for l in ld.lld-19 ld.lld; do
	command -v $l >/dev/null 2>&1 && lld=$(command -v $l) && break
done
if [ -n "$lld" ]; then
	mkdir -p lld && ln -sf "$lld" lld/ld.lld
	cc -B lld -fuse-ld=lld -o prog-lld opt_main.o libopt.a -Wl,--symbol-ordering-file=m.order
	ok $? "lld links with the symbol ordering file"
	is "$(./prog-lld 2000)" "$expected" "the lld build computes the same"
	in_order prog-lld m.order
	ok $? "lld placed the functions in the order"
	cc -B lld -fuse-ld=lld -o prog-cg opt_main.o libopt.a -Wl,--call-graph-ordering-file=m.cg 2>cg.err
	ok $? "lld links with the call-graph file"
	! grep -q warning cg.err
	ok $? "lld knows every name of the call-graph file"
else
	for i in 1 2 3 4 5; do skip "lld is not installed (scripts/deps/optimize.txt)"; done
fi

# The linker command lines printed are the ones used above.
grep -q -- '-fuse-ld=gold -Wl,--section-ordering-file=m.gold-order' opt.out &&
	grep -q -- '--call-graph-ordering-file=m.cg' opt.out
ok $? "the printed flags name the files written"
is "$(grep -c . m.cg)" "$(sort -u m.cg | grep -c .)" "the call-graph file has one line per pair"
done_testing
