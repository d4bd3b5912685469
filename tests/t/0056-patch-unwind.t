#!/bin/sh
# Unwinders walk through patched functions' trampolines: the unwind
# information the runtime makes for them and for its return points takes
# libgcc's unwinder (_Unwind_Backtrace called by the program, backtrace(),
# C++ exceptions, thread cancellation, under --patch and -pg) and gdb's (through its JIT interface) from a frame
# stopped inside a patched call, or inside a trampoline, on to main.
. "$(dirname "$0")/lib.sh"

plan 13

# The program's own walks, with and without library-call tracing (whose
# return trampoline the walk meets too): the same frames as unpatched.
g++ -O2 -g -rdynamic -o walks "$PROGS/unwind_walks.cc"
./walks > want.txt
ok "$(grep -c '^_Unwind_Backtrace: walk_leaf walk_inner walk_outer walk_main main$' want.txt | grep -qx 4; echo $?)" \
	"unpatched: the walks reach main (the test sees what it compares)"
for libcall in "" --no-libcall; do
	limited "$CS" record --patch $libcall -o walks.data -- ./walks > got.txt 2> walks.err
	same_file want.txt got.txt "patched ${libcall:-with library calls}: _Unwind_Backtrace, backtrace() and exceptions pass the trampolines"
done
is "$(calls_of walks.data walk_leaf)" 4 "the walks' calls are traced"

# A cancelled thread's destructors run through redirected frames.
g++ -O2 -g -o cancel "$PROGS/cancel_unwind.cc" -lpthread
g++ -O2 -g -pg -o cancel-pg "$PROGS/cancel_unwind.cc" -lpthread
want=$(./cancel)
is "$want" "$(printf 'unwound cancel_mid\nunwound cancel_top\ncanceled')" \
	"unpatched: the cancellation runs both destructors"
is "$(limited "$CS" record --patch -o cancel.data -- ./cancel 2> /dev/null)" "$want" \
	"patched: the cancellation passes the trampolines, destructors run"
is "$(limited "$CS" record -o cancel-pg.data -- ./cancel-pg 2> /dev/null)" "$want" \
	"-pg: the cancellation passes the return trampoline, destructors run"

if ! command -v gdb > /dev/null; then
	for i in 1 2 3 4 5 6; do skip "gdb not installed"; done
	done_testing
	exit
fi

# gdb attaches to the recorded program once its entries are patched.
cc -O2 -g -o wait "$PROGS/patch_gdb_wait.c"
# in_gdb COMMANDS...: runs $prog under record $how and gdb's COMMANDS
# once attached; gdb's output in gdb.txt
prog=./wait how=--patch=outer,middle,leaf
in_gdb() {
	rm -f pid
	limited "$CS" record $how -o gdb.data -- $prog "$WORK/pid" > wait.out 2> wait.err &
	rec=$!
	for i in $(seq 100); do [ -s pid ] && break; sleep 0.1; done
	set -- -ex 'set var attached=1' "$@"
	limited gdb -nx -batch -p "$(cat pid)" "$@" -ex detach > gdb.txt 2>&1
	wait $rec
}
# frames FILE: the functions of a `bt` in gdb's output, in order
frames() {
	sed -n 's/^#[0-9]* *\(0x[0-9a-f]* in \)\{0,1\}\([A-Za-z_][A-Za-z_0-9]*\) .*/\2/p' "$1" | tr '\n' ' '
}

in_gdb -ex 'break stop_here' -ex continue -ex bt
if grep -q 'ptrace: Operation not permitted' gdb.txt; then
	for i in 1 2 3 4 5 6; do skip "gdb may not attach here (ptrace)"; done
	done_testing
	exit
fi
is "$(frames gdb.txt)" \
	"stop_here leaf callscope_trampoline middle callscope_trampoline outer callscope_trampoline main " \
	"gdb: bt in a callee of patched functions passes each trampoline to main"
is "$(cat wait.out)" 12 "gdb: the program ran on unchanged"

# a stop at a patched entry, one instruction on (the jump to the
# trampoline), one more (the entry hook's first instruction), and inside
# the runtime's C code called from it
in_gdb -ex 'break *middle' -ex continue -ex delete -ex stepi -ex bt -ex stepi -ex bt \
	-ex 'break callscope_patch_enter' -ex continue -ex bt
frames gdb.txt > all.txt
ok "$(grep -q '^callscope_trampoline outer callscope_trampoline main callscope_patch_entry callscope_trampoline outer callscope_trampoline main ' all.txt; echo $?)" \
	"gdb: bt from the trampoline's first instruction, and from the entry hook, reach main"
ok "$(grep -Eq 'callscope_patch_enter callscope_patch_entry callscope_trampoline (middle callscope_trampoline )?outer callscope_trampoline main ' all.txt; echo $?)" \
	"gdb: bt from the runtime's C side of a patched entry reaches main"
is "$(cat wait.out)" 12 "gdb: stepping through a trampoline leaves the program's result alone"

# -pg's redirected returns too
cc -O2 -g -pg -o wait-pg "$PROGS/patch_gdb_wait.c"
prog=./wait-pg how=
in_gdb -ex 'break stop_here' -ex continue -ex bt
is "$(frames gdb.txt)" \
	"stop_here leaf callscope_redirected_return middle callscope_redirected_return outer callscope_redirected_return main " \
	"gdb, -pg: bt passes each redirected return to main"
done_testing
