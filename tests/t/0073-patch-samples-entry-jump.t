#!/bin/sh
# record --patch --mode=count --time-by=samples: a timer sample on a
# patched function's entry (the jump to its trampoline, not yet run) is the
# function's time, not the hooks': it waited for the call that landed
# there, which perf gives to the function called, as often as in a run
# without the patch.
#
# gdb stops the program at one of the sampler's timer signals, makes it
# look as if the program had just called landing() (a return address
# pushed, the PC on landing's entry), and lets the signal in.
. "$(dirname "$0")/lib.sh"

plan 3
if ! command -v gdb > /dev/null; then
	for i in 1 2 3; do skip "gdb not installed"; done
	done_testing
	exit
fi
cc -O2 -g -o land "$PROGS/patch_entry_sample.c"
# the POSIX timer's real-time signal, which gdb can stop at and pass on
limited "$CS" record --no-libcall --patch=landing --mode=count --time-by=samples \
	--sample-source=timer -o l.data -- ./land "$WORK/pid" > land.out 2> land.err &
rec=$!
for i in $(seq 100); do [ -s pid ] && break; sleep 0.1; done
# the sampler takes the highest free one
sig=SIG$(kill -l SIGRTMAX 2> /dev/null || echo 64)
limited gdb -nx -batch -p "$(cat pid)" -ex "handle $sig stop print pass" -ex continue \
	-ex 'set $ret = $pc' -ex 'set $sp = $sp - 8' -ex 'set *(long *)$sp = $ret' \
	-ex 'set $pc = (long)&landing' -ex 'printf "at %d\n", $pc == (long)&landing' \
	-ex 'set var attached = 1' -ex "handle $sig nostop noprint pass" -ex detach > gdb.txt 2>&1
wait $rec
if grep -q 'ptrace: Operation not permitted' gdb.txt; then
	for i in 1 2 3; do skip "gdb may not attach here (ptrace)"; done
	done_testing
	exit
fi
is "$(sed -n 's/^at //p' gdb.txt):$(cat land.out)" "1:1" \
	"the signal came in on landing's entry, and landing ran once"
self=$("$CS" report -i l.data --json | jq '[.functions[] | select(.name == "landing") | .self_ns] | add // 0')
is "$(calls_of l.data landing)" 1 "its call is counted"
ok "$([ "$self" -gt 0 ]; echo $?)" "the sample on its entry's jump is landing's time (${self} ns)"
done_testing
