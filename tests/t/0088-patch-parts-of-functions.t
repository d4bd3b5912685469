#!/bin/sh
# record --patch tells a part split off a function from a function by the
# CFI at its start, named or stripped: a .part.0 clone of partial inlining
# (called) and a function reached only by a tail call are functions,
# patched and counted exactly; a .cold part, which begins inside its
# parent's frame, is left out and counted as a part in info.
. "$(dirname "$0")/lib.sh"

plan 13
# ROUNDS is a multiple of 8: the program makes ROUNDS / 2 calls of
# refill.part.0, ROUNDS of tail_target, and runs checked.cold every 8th round
ROUNDS=800
cc -O2 -g -o parts "$PROGS/patch_parts.c"
strip -o parts-stripped parts
# addr NAME: the link-time address of NAME, as report names a function of
# the stripped copy (the same code at the same addresses)
addr() { nm parts | awk -v n="$1" '$3 == n { sub(/^0+/, "", $1); print "0x" $1 }'; }
part=$(addr refill.part.0)
cold=$(addr checked.cold)
if [ -z "$part" ] || [ -z "$cold" ] ||
	! objdump -d parts | grep -q 'jmp .*<tail_target>'; then
	for i in $(seq 13); do
		skip "cc -O2 made no refill.part.0, checked.cold or tail call to tail_target"
	done
	done_testing
fi

want=$(./parts $ROUNDS)
for copy in parts parts-stripped; do
	is "$(limited "$CS" record --patch -o $copy.data -- ./$copy $ROUNDS 2> $copy.err)" "$want" \
		"$copy: output unchanged"
	"$CS" report -i $copy.data --json | jq -r '.functions[] | "\(.name)=\(.calls)"' |
		sort > $copy.counts
	"$CS" info -i $copy.data > $copy.info
done

is "$(calls_of parts.data refill.part.0)" $((ROUNDS / 2)) \
	"a .part.0 clone reached by call is patched, its calls exact"
is "$(calls_of parts.data tail_target)" $ROUNDS \
	"a function reached only by a tail call is patched, its calls exact"
is "$(calls_of parts.data checked)/$(calls_of parts.data complain)" "$ROUNDS/$((ROUNDS / 4))" \
	"the parent of the .cold part counted once per call, the calls from its cold path too"
is "$(grep -c '^checked[.]cold=' parts.counts)" 0 "the .cold part is no function"
ok "$(grep -q '; 1 parts split off functions (.cold) left out$' parts.info; echo $?)" \
	"info counts the .cold part as the one part left out"

# stripped, nothing names them: the CFI alone tells the part from the functions
is "$(calls_of parts-stripped.data "parts-stripped+$part")" $((ROUNDS / 2)) \
	"stripped: the .part.0 clone is patched, its calls exact"
is "$(calls_of parts-stripped.data "parts-stripped+$(addr tail_target)")" $ROUNDS \
	"stripped: the function reached only by a tail call is patched, its calls exact"
is "$(calls_of parts-stripped.data "parts-stripped+$(addr checked)")" $ROUNDS \
	"stripped: the parent of the .cold part counted once per call"
is "$(grep -c "^parts-stripped+$cold=" parts-stripped.counts)" 0 \
	"stripped: the .cold part is no function"
ok "$(grep -q '; 1 parts split off functions (.cold) left out$' parts-stripped.info; echo $?)" \
	"stripped: info counts the .cold part as the one part left out"

# the stripped copy's counts of the program's functions are the named one's
own="main fast_a fast_b refill.part.0 tail_caller tail_target complain checked"
named= stripped=
for f in $own; do
	named="$named $f=$(calls_of parts.data $f)"
	stripped="$stripped $f=$(calls_of parts-stripped.data "parts-stripped+$(addr $f)")"
done
is "$stripped" "$named" "stripped: every count of the program's functions equals the named copy's"
done_testing
