#!/bin/sh
# record --mode=count --call-stats takes the hooks' cost off each call's
# per-call statistics in the program, as it ends; the reader takes the
# same cost off the call paths.  A library call's hooks cost more than a
# compiler hook's (tests/t/0641), so both must take the library figure
# off a library call and, for each library call beneath, off every call
# around it.  A function called once has one duration in its statistics
# (shortest = longest) and one in its path (the total): the two agree to
# the rounding, for a library function, for a function whose calls
# beneath are library calls, and for one whose calls beneath have
# compiler hooks.  Had the statistics taken the compiler hooks' figure
# off, they would keep the library calls' extra: a few ns for the library
# function's own call, 50 000 times that for the loop around its calls.
. "$(dirname "$0")/lib.sh"

plan 5
LIMIT=120
N=50000
# tests/progs/libcall_loops.c, its library without hooks
cc -O2 -fPIC -shared -o libtiny.so "$PROGS/libcall_loops_lib.c" || exit 1
cc -O2 -pg -o calls "$PROGS/libcall_loops.c" -L. -ltiny -Wl,-rpath,'$ORIGIN' || exit 1

# The difference shows only where the library calls' hooks were measured
# dearer than a compiler hook's, which a busy machine can hide in one run
# (a library figure below is held at the compiler hooks'): the first of
# five runs where the library call's inner part costs a nanosecond more.
dearer=false
for i in 1 2 3 4 5; do
	limited "$CS" record --mode=count --call-stats -o c.data -- ./calls $N > /dev/null 2>&1
	dearer=$("$CS" info -i c.data --json |
		jq '.processes[0] | .library_hook_ns_subtracted_inner - .hook_ns_subtracted_inner >= 1')
	[ "$dearer" = true ] && break
done
"$CS" report -i c.data --json > r.json
# each named function's one call: its statistics' duration and its path's total
one_call() {
	jq -c --arg f "$1" '[.functions[] | select(.name == $f) | [.calls, .min_ns, .max_ns, .total_ns]] | first' r.json
}
# agreement to 2 ns: each side rounds its clock units to ns
agrees() {
	one_call "$1" | jq '.[0] == 1 and .[1] == .[2] and (.[1] - .[3] | fabs) <= 2'
}
if [ "$dearer" = true ]; then
	is "$(agrees tiny_work)" true \
		"a library function's call loses the library figure in its statistics as in its path ($(one_call tiny_work))"
	is "$(agrees lib_loop)" true \
		"a call around $N library calls loses their library figure in its statistics as in its path ($(one_call lib_loop))"
else
	skip "the library calls' hooks were measured no dearer than a compiler hook's in five runs"
	skip "the library calls' hooks were measured no dearer than a compiler hook's in five runs"
fi
is "$(agrees own_loop)" true \
	"a call around $N calls with compiler hooks loses their figure in its statistics as in its path ($(one_call own_loop))"
is "$("$CS" info -i c.data --json | jq '.call_stats')" true "the recording kept per-call statistics"

# The same when the only library calls were made by a thread still
# running at exit, which no count of library calls covers (the process
# counts those of threads that ended): the paths must still lose the
# library figure the statistics lost.  Had the extra been measured at
# 0 ns in all five runs, the two would agree either way.
cc -O2 -pg -o worker_only "$PROGS/libcall_worker_only.c" -L. -ltiny -Wl,-rpath,'$ORIGIN' -lpthread || exit 1
# A run whose statistics came out 0 ns is not compared: the figures taken
# off exceeded the call's measured time (a loaded machine measured them
# high), the statistics stop at 0 and the path's parts at 0 each.
apart="" compared=0
for i in 1 2 3 4 5; do
	limited "$CS" record --mode=count --call-stats -o w.data -- ./worker_only > /dev/null 2>&1
	"$CS" report -i w.data --json > r.json
	[ "$(one_call lib_loop | jq '.[1] > 0')" = true ] || continue
	compared=$((compared + 1))
	[ "$(agrees lib_loop)" = true ] || apart="$apart $(one_call lib_loop)"
done
[ $compared -gt 0 ] || apart="none of 5 runs compared"
is "$apart" "" "library calls of a thread still running at exit: the statistics and the path agree ($compared runs of 5 compared)"
done_testing
