#!/bin/sh
# callscope gprof against GNU gprof on randomly generated programs: a
# seeded generator (tests/progs/gprof_gen.c) writes programs with cycles,
# self-recursion, static and unused functions; each is built with -pg at
# several -O levels and run once, and `gprof -b` and `callscope gprof -b`
# read the SAME gmon.out (sampling differs between runs), as do their
# line-level views (-l -z -C -p -q).  The outputs must be equal byte for
# byte: with --compat=strict always (gprof's name filter bug reproduced),
# and in the default mode for -O0 builds, which have no cloned functions
# for the bug to bite on.
. "$(dirname "$0")/lib.sh"

SEEDS="1 2 3 4 5 6 7 8 9 10 11 12"
LEVELS="0 1 2 3"

if ! command -v gprof >/dev/null 2>&1; then
	plan 1
	skip "GNU gprof not installed (binutils)"
	exit 0
fi
plan 111
cycles=0
for s in $SEEDS; do
	for O in $LEVELS; do
		gprof_program "$s" "$O" "p$s-$O" || exit 1
		gmon_of "p$s-$O" "g$s-$O.out"
		gprof -b "p$s-$O" "g$s-$O.out" > want.txt 2> want.err
		limited "$CS" gprof -b --compat=strict "p$s-$O" "g$s-$O.out" > got.txt 2> got.err
		if cmp -s want.txt got.txt; then
			ok 0 "seed $s -O$O: -b output equals gprof's"
		else
			ok 1 "seed $s -O$O: -b output equals gprof's"
			diff want.txt got.txt | head -20 | sed 's/^/#   /'
		fi
		grep -q 'as a whole' want.txt && cycles=$((cycles + 1))
		# line granularity (DWARF lines, inlined functions named as
		# gprof names them), execution counts, unused functions too
		gprof -b -l -z -C -p -q "p$s-$O" "g$s-$O.out" > want-l.txt 2> /dev/null
		limited "$CS" gprof -b --compat=strict -l -z -C -p -q "p$s-$O" "g$s-$O.out" \
			> got-l.txt 2> /dev/null
		if cmp -s want-l.txt got-l.txt; then
			ok 0 "seed $s -O$O: -l -z -C -p -q output equals gprof's"
		else
			ok 1 "seed $s -O$O: -l -z -C -p -q output equals gprof's"
			diff want-l.txt got-l.txt | head -20 | sed 's/^/#   /'
		fi
		if [ "$O" = 0 ]; then
			"$CS" gprof -b "p$s-$O" "g$s-$O.out" > fixed.txt 2>&1
			cmp -s want.txt fixed.txt
			ok $? "seed $s -O0: default mode equals gprof's too"
		fi
	done
done
# the comparison must have covered cycles, or it proved little
[ "$cycles" -ge 3 ]
ok $? "cycles came up in $cycles of the generated programs"
[ -s want.txt ] && grep -q '^Index by function name' want.txt
ok $? "the outputs compared hold an index"
grep -q 'calls' want.txt
ok $? "the outputs compared hold a flat profile"
done_testing
