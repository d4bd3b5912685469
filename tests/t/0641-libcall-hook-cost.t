#!/bin/sh
# A library call's hooks (a stub, an entry point of their own, then the
# return trampoline) cost more than a compiler hook's, and that cost is
# measured apart and subtracted from library calls alone.  The same file
# read as one written before the library calls' figures existed (those
# fields of CALIBRATION zeroed) subtracts the compiler hooks' figure from
# every call; the difference between the two readings is the library
# calls' extra cost, in the library function's self time and in its
# caller's total.  The difference is checked rather than the times
# themselves: on a machine others use, what a call's hooks cost varies
# from run to run by as much as the extra cost (about 10 ns), many times
# what the tiny function does, and so does the extra cost itself: the
# library figures are set to a known multiple of the compiler hooks'.
# Count mode sums the same calls in the
# program and its call paths lose the same, as does a sum of its runs;
# it keeps the start's figures, not measuring them again at exit.
. "$(dirname "$0")/lib.sh"

plan 17
LIMIT=120
N=50000
# tests/progs/libcall_loops.c, its library without hooks
cc -O2 -fPIC -shared -o libtiny.so "$PROGS/libcall_loops_lib.c" || exit 1
cc -O2 -pg -o calls "$PROGS/libcall_loops.c" -L. -ltiny -Wl,-rpath,'$ORIGIN' || exit 1
# check_mode MODE: the checks on a recording in MODE (trace or count)
check_mode() {
	mode=$1
	# the calibration's figures, which every run has
	limited "$CS" record --mode=$mode --outside-freq=0 -o $mode.data -- ./calls $N > /dev/null 2>&1
	"$CS" info -i $mode.data --json > $mode-all.json
	jq '.processes[0]' $mode-all.json > $mode-info.json
	library_calls=$(jq '.library_calls // 0' $mode-info.json)
	ok "$([ "$library_calls" -ge $N ] && [ "$library_calls" -le $((N + 20)) ] && echo 0 || echo 1)" \
		"$mode: the library calls are counted apart ($library_calls, $N of them tiny_step)"
	is "$(jq '.library_hook_ns_subtracted >= .hook_ns_subtracted' $mode-info.json)" true \
		"$mode: a library call's hooks cost no less than a compiler hook's"
	# on a busy machine the two can come out level (a library figure
	# below is held at the compiler hooks'): the library figures, at start
	# (offset 88) and at exit (96), are set to 1.15 times the compiler hooks',
	# so that what follows checks how the difference is taken off
	pair=$(jq --argjson u "$(jq '.ns_per_clock_unit' $mode-all.json)" \
		'(.hook_ns_subtracted_inner * 1.15 * 256 / $u | round) as $in
		 | ((.hook_ns_subtracted - .hook_ns_subtracted_inner) * 1.15 * 256 / $u | round) as $out
		 | $in + $out * 4294967296' $mode-info.json)
	perl "$ROOT/tests/t/session_forge.pl" --section=12 $mode.data 88=$pair 96=$pair
	"$CS" info -i $mode.data --json | jq '.processes[0]' > $mode-info.json
	# the library calls' inner and whole extra cost, ns per call
	extra_inner=$(jq '.library_hook_ns_subtracted_inner - .hook_ns_subtracted_inner' $mode-info.json)
	extra=$(jq '.library_hook_ns_subtracted - .hook_ns_subtracted' $mode-info.json)

	# the same file as an older runtime wrote it: no library figures, no count
	cp $mode.data $mode-old.data
	perl "$ROOT/tests/t/session_forge.pl" --section=12 $mode-old.data \
		88=0 96=0 104=0 112=0 120=0 128=0
	times_of $mode.data > $mode-new.json
	times_of $mode-old.data > $mode-old.json
	# a call shorter than what is taken off is held at 0 (the calibration's
	# figure: model/hook_cost.h), so the function loses up to that much
	tiny_less=$(jq -n --slurpfile n $mode-new.json --slurpfile o $mode-old.json \
		'$o[0].tiny_step.self - $n[0].tiny_step.self')
	is "$(jq -n --argjson got "$tiny_less" --argjson want "$(jq -n "$N * $extra_inner")" \
		'$got >= ($want / 4 | floor) and $got <= $want * 1.05 + 1000')" true \
		"$mode: tiny_step's self time loses the extra inner part of its calls ($tiny_less ns)"
	loop_less=$(jq -n --slurpfile n $mode-new.json --slurpfile o $mode-old.json \
		'$o[0].lib_loop.total - $n[0].lib_loop.total')
	# the same holding at 0, of calls shorter than all that is taken off
	# them, can leave lib_loop part of it: about half on a quiet machine,
	# less where load inflated the calibration (its figures are the base
	# of the forged ones): about 0.3 of it seen
	loop_want=$(jq -n "$N * $extra | floor")
	is "$(jq -n --argjson got "$loop_less" --argjson want "$loop_want" \
		'$got >= ($want / 5 | floor) and $got <= $want * 1.05 + 1000')" true \
		"$mode: lib_loop's total loses the whole extra cost of each call beneath it ($loop_less of $loop_want ns)"
	is "$(jq -n --slurpfile n $mode-new.json --slurpfile o $mode-old.json \
		'$n[0].own_step == $o[0].own_step and $n[0].own_loop == $o[0].own_loop')" \
		true "$mode: the compiler hooks' calls keep their figure"
	"$CS" report -i $mode.data > $mode-r.txt
	grep -q 'per call (.* per library call)' $mode-r.txt
	ok $? "$mode: the report's header says both figures"
	"$CS" info -i $mode.data | grep -q 'library calls: [0-9]*, their hooks measured at'
	ok $? "$mode: info says the library calls' figures"
}

times_of() {
	"$CS" report -i "$1" --json |
		jq -c '[.functions[] | select(.name | test("^(tiny_step|own_step|lib_loop|own_loop)$"))
			| {key: .name, value: {self: .self_ns, total: .total_ns}}] | from_entries'
}

check_mode trace
check_mode count
# count mode's per-call statistics lost the start's figure in the
# program: its paths must lose the same, not a lower one
is "$(jq '.hook_ns_at_exit == null and (.hook_ns_subtracted - .hook_ns_at_start | fabs) < 0.001' count-info.json)" \
	true "count: the start's figure is kept, not measured again at exit"
# the start's figures are repeated at exit, flagged so: a reader that
# does not know the flag subtracts them, not a pair of 0
cp count.data count-unflagged.data
perl "$ROOT/tests/t/session_forge.pl" --section=12 count-unflagged.data 32=0
is "$("$CS" info -i count-unflagged.data --json |
	jq '.processes[0] | (.hook_ns_at_exit - .hook_ns_at_start | fabs) < 0.001')" \
	true "count: without the flag, the figures at exit read as the start's"
# a sum of count-mode runs is read through its paths' addresses: its
# library calls lose the same
limited "$CS" merge -o sum.data count.data count.data > /dev/null 2>&1
times_of sum.data > sum.json
is "$(jq -n --slurpfile s sum.json --slurpfile n count-new.json \
	'($s[0].lib_loop.total - 2 * $n[0].lib_loop.total) | fabs <= 2')" true \
	"count: a sum of two runs gives lib_loop twice its total, the library calls' cost taken off"
done_testing
