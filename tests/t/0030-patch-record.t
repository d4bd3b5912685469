#!/bin/sh
# record --patch on programs built without hooks: the plan is made, the
# program's output is unchanged, 'info' counts what was patched and
# skipped (and names the skipped with --verbose), SPEC selects functions
# and objects, and a wrong SPEC or mode is one clear line.  Where the
# runtime patches (it reads the plan), the counts equal those of the same
# source built with -pg, and callgrind's on the very binary where
# callgrind agrees with -pg.
. "$(dirname "$0")/lib.sh"

plan 20
cc -O2 -g -w -o corpus "$PROGS/patch_corpus.c" || exit 1
cc -O2 -g -w -pg -o corpus-pg "$PROGS/patch_corpus.c" || exit 1

counts() {
	"$CS" report -i "$1" --json | jq -r '.functions[] | "\(.name) \(.calls)"' | sort
}

limited "$CS" record --patch -o p.data -- ./corpus 3 > out.txt 2> err.txt
rc=$?
is "$rc $(cat out.txt)" "0 $(./corpus 3)" "--patch: exit status and output unchanged"
grep -q "patching the entries of 192 of 193 functions in 1 object" err.txt
ok $? "--patch says how many entries it patches"
"$CS" info p.data > info.txt
grep -q '^patched: *192 of 193 functions (99.5%) in 1 object' info.txt &&
	grep -q '^  1 of them by a trap (int3, where no jump fits' info.txt &&
	grep -q '^  1 skipped: entered without a call (an entry point, a signal return)' info.txt &&
	! grep -q 'asm_into' info.txt
ok $? "info: patched, trapped, and the skipped counted per reason"
"$CS" info --verbose p.data > verbose.txt
grep -A1 'by a trap' verbose.txt | grep -q '^    asm_no_room$' &&
	grep -A1 'entered without a call' verbose.txt | grep -q '^    _start$'
ok $? "info --verbose: the trapped and the skipped named"
is "$("$CS" info --json p.data | jq -r '[.patch.patched, .patch.functions, .patch.trapped, (.patch.objects[0].trapped | map(.name) | sort | join(",")), (.patch.objects[0].skipped | map(.name) | sort | join(","))] | join(" ")')" \
	"192 193 1 asm_no_room _start" "info --json: the coverage, the trapped and the skipped"

# SPEC
limited "$CS" record --patch='jump_table_*,asm_loop0' -o s.data -- ./corpus > /dev/null 2> err.txt
grep -q "of 17 functions in 1 object" err.txt
ok $? "--patch=GLOB,NAME selects those functions"
limited "$CS" record --patch='corpus:gcd_1' -o s.data -- ./corpus > /dev/null 2> err.txt
grep -q "of 1 function in 1 object" err.txt
ok $? "--patch=OBJECT:NAME"
if [ -r /usr/lib/x86_64-linux-gnu/libz.so.1 ]; then
	limited "$CS" record --patch=asm_loop0,libz -o z.data -- ./corpus > /dev/null 2>&1
	"$CS" info --json z.data | jq -r '.patch.objects[].path' > objs.txt
	[ "$(wc -l < objs.txt)" -eq 2 ] && grep -q 'libz.so' objs.txt &&
		[ "$("$CS" info --json z.data | jq '.patch.objects[1].functions')" -ge 100 ]
	ok $? "--patch=libz: a library the program loads later is planned whole"
else
	skip "no libz.so.1 here"
fi
for spec in nosuch_function libnosuch:f 'corpus:' ',,'; do
	limited "$CS" record --patch="$spec" -o e.data -- ./corpus > /dev/null 2> err.txt
	rc=$?
	[ $rc -ne 0 ] && [ $rc -lt 124 ] && [ "$(wc -l < err.txt)" -eq 1 ] && grep -q -- '--patch' err.txt
	ok $? "--patch='$spec': one line, exit $rc"
done
limited "$CS" record --patch --mode=sample -o e.data -- ./corpus > /dev/null 2> err.txt
[ $? -eq 2 ] && grep -q -- "--patch traces the program; leave out --mode=sample" err.txt
ok $? "--patch with --mode=sample: a usage error"
limited "$CS" record --patch -o pg.data -- ./corpus-pg 2 > /dev/null 2> err.txt
grep -q "calls -pg hooks, so it is traced through them; --patch is left out" err.txt &&
	! "$CS" info --json pg.data | jq -e .patch > /dev/null
ok $? "a program with -pg hooks is traced through them"
for mode in flight count; do
	limited "$CS" record --patch --mode=$mode -o m.data -- ./corpus 2 > out.txt 2>/dev/null
	is "$? $(cat out.txt)" "0 $(./corpus 2)" "--patch --mode=$mode: output unchanged"
done

# The counts, once the runtime follows plans
if [ "$("$CS" info --json p.data | jq .calls)" -eq 0 ]; then
	for i in 1 2 3 4; do skip "this runtime does not patch entries yet"; done
	exit 0
fi
limited "$CS" record -o pg.data -- ./corpus-pg 3 > /dev/null 2>&1
counts pg.data > pg.txt
counts p.data > patched.txt
# the -pg build hooks the C functions; the patched one also its asm_*
# and the C runtime's start-up functions, which -pg leaves alone (and
# the program's entry point, skipped: it is never called)
join pg.txt patched.txt | awk '$2 != $3' > differ.txt
is "$(wc -l < pg.txt) $(cat differ.txt)" "$(join pg.txt patched.txt | wc -l) " \
	"every function -pg counts has the same count patched"
grep -q '^asm_loop0 3$' patched.txt
ok $? "a loop back to the entry is no call (asm_loop0: 3 calls)"
limited "$CS" record --patch --mode=count -o c.data -- ./corpus 3 > /dev/null 2>&1
counts c.data | join pg.txt - | awk '$2 != $3' > differ.txt
is "$(cat differ.txt)" "" "--mode=count: the -pg build's counts"
if command -v valgrind > /dev/null; then
	LIMIT=300 limited valgrind --tool=callgrind --callgrind-out-file=cg.out ./corpus 3 > /dev/null 2>&1
	"$ROOT/../shared/tools/callgrind-graph" cg.out --object corpus | sort > cg.txt
	# where callgrind and -pg agree, the patched counts are theirs
	join pg.txt cg.txt | awk '$2 == $3 { print $1, $2 }' > agreed.txt
	join agreed.txt patched.txt | awk '$2 != $3' > differ.txt
	# (callgrind counts a loop back to the entry as a call: last_value_*)
	[ "$(wc -l < agreed.txt)" -ge 140 ] && [ ! -s differ.txt ]
	ok $? "callgrind on the very binary: $(wc -l < agreed.txt) counts agreed, all equal patched"
else
	skip "no valgrind"
fi
