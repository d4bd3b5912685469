#!/bin/sh
# record --patch --mode=count --time-by=samples: a patched entry whose call
# path the thread's call memo holds takes the hooks' short path, as a
# -mfentry function's does, not the general one (sampled_count_enter()).
# The general path costs 2.5 times as much a call, and beside it the
# program's short functions take more of the run than in a plain run, which
# moves the self shares away from perf's on the same binary.
#
# gdb counts the general path's entries while the program calls
# outer -> middle -> leaf -> stop_here three times: each path is new the
# first time only.
. "$(dirname "$0")/lib.sh"

plan 4
if ! command -v gdb > /dev/null; then
	for i in 1 2 3 4; do skip "gdb not installed"; done
	done_testing
	exit
fi
cc -O2 -g -o wait "$PROGS/patch_gdb_wait.c"
# The samples come by a timer's real-time signal, which gdb passes on
# unseen: the default task-clock event signals by SIGTRAP, gdb's own
# signal, and a sample taken while gdb holds the program (a CPU-time
# period ends now and then while gdb steps it past the breakpoint) stops
# gdb as a SIGTRAP of unknown cause; the script then went on to 'info
# breakpoints' and detached with the entries still to come uncounted.
rt=$(seq 34 64 | sed 's/^/SIG/' | tr '\n' ' ')
limited "$CS" record --patch --mode=count --time-by=samples --sample-source=timer \
	-o w.data -- ./wait "$WORK/pid" > wait.out 2> wait.err &
rec=$!
for i in $(seq 100); do [ -s pid ] && break; sleep 0.1; done
# the entries of the four functions alone (not a library call's, nor
# those of the functions that run at exit), each printed with its round:
# gdb reports a breakpoint again, for the same entry, when a signal comes
# while it steps the program over it (a sample's), so the test counts
# distinct entries, not the breakpoint's hits
mine='addr == (long)&outer || addr == (long)&middle || addr == (long)&leaf || addr == (long)&stop_here'
cat > general.gdb <<EOF
handle $rt nostop noprint pass
break sampled_count_enter if $mine
commands 1
silent
printf "general path: %lx in round %d\\n", addr, call_round
continue
end
set var attached=1
continue
EOF
limited gdb -nx -batch -p "$(cat pid)" -x general.gdb > gdb.txt 2>&1
wait $rec
if grep -q 'ptrace: Operation not permitted' gdb.txt; then
	for i in 1 2 3 4; do skip "gdb may not attach here (ptrace)"; done
	done_testing
	exit
fi
hits=$(grep '^general path: ' gdb.txt | sort -u | wc -l)
is "$(cat wait.out)" 12 "the program ran on unchanged"
is "$(calls_of w.data stop_here)" 3 "the calls are counted, each of them"
ok "$([ "$hits" -gt 0 ]; echo $?)" "gdb saw the general path's entries ($hits)"
# the 4 new paths of the first round; the 8 entries of the two rounds after
# find theirs in the memo
ok "$([ "$hits" -le 4 ]; echo $?)" \
	"$hits entries of 12 took the general path: the new paths' alone"
done_testing
