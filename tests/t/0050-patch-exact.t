#!/bin/sh
# record --patch on programs built without hooks (-O2), end to end: the
# output and exit status unchanged, and the count of every function
# equal to the -pg build's of the same source, through longjmp, C++
# exceptions (thrown through patched frames), threads, swapcontext and
# tail calls (one to the function itself), with backtrace() unchanged;
# and equal to callgrind's on the very binary.  A library
# dlopen loads is patched as it loads, while its own thread runs in it.  Functions
# -pg does not hook (the start-up code) or that the plan leaves out
# (.cold parts, which are no functions) are not compared; .part clones are
# functions, patched, and compared.
. "$(dirname "$0")/lib.sh"

plan 29
counts() {
	"$CS" report -i "$1" --json |
		jq -r '.functions[] | select(.name | test("^(_init|_fini|_start|frame_dummy|register_tm_clones|deregister_tm_clones|__do_global_dtors_aux)$|[.]cold") | not) | "\(.name)=\(.calls)"' |
		sort
}

# exact NAME COMPILER SOURCE [status-only]: the patched -O2 build against the -pg build
exact() {
	name=$1
	"$2" -O2 -g -o "$name" "$3" -lpthread
	"$2" -O2 -g -pg -o "$name-pg" "$3" -lpthread
	# threads.c's sum races (unlocked +=), so only its status is compared
	keep=cat
	[ "${4:-}" = status-only ] && keep="tail -1"
	is "$( (limited "$CS" record --patch -o "$name.data" -- "./$name" 2> "$name.err"; echo "rc=$?") | $keep)" \
		"$( ("./$name"; echo "rc=$?") | $keep)" "$name: output and exit status unchanged"
	limited "$CS" record -o "$name-pg.data" -- "./$name-pg" > /dev/null 2>&1
	counts "$name-pg.data" > want.txt
	counts "$name.data" > got.txt
	same_file want.txt got.txt "$name: every count equals the -pg build's"
}
exact longjmp cc "$PROGS/longjmp.c"
exact exceptions g++ "$PROGS/exceptions.cc"
ok "$(grep -q '^cleanup_call=21$' got.txt; echo $?)" "exceptions: the destructors ran as the throws passed"
exact threads cc "$PROGS/threads.c" status-only
ok "$(grep -q '^work=20001$' got.txt; echo $?)" "threads: every thread's calls counted"
exact coroutine cc "$PROGS/coroutine.c"
exact tailcall cc "$PROGS/tailcall.c"
exact cycle cc "$PROGS/cycle.c"
# a jump back to its own entry after the epilogue is a tail call to itself:
# a call, as the -pg build's hook and gdb's breakpoint count it, not a loop
exact self_tail cc "$PROGS/self_tail.c"
shape=$(objdump -d --no-show-raw-insn self_tail | awk '/<split>:$/, /^$/' | grep -c 'jmp .*<split>$')
ok "$([ "$shape" -ge 1 ] && grep -q '^split=31$' got.txt; echo $?)" \
	"self_tail: split jumps to its own entry ($shape), and each jump counts a call"
# backtrace() walks through patched (and -pg) frames as without profiler
exact backtrace_depth cc "$PROGS/backtrace_depth.c"
is "$(limited "$CS" record -o bt-pg.data -- ./backtrace_depth-pg 2> /dev/null)" \
	"$(./backtrace_depth)" "backtrace_depth: -pg's redirected frames walked through too"

# the modes downstream: count mode and the flight recorder count the same
limited "$CS" record --patch --mode=count -o count.data -- ./longjmp > /dev/null 2>&1
limited "$CS" record --patch -o trace.data -- ./longjmp > /dev/null 2>&1
is "$(counts count.data | tr '\n' ' ')" "$(counts trace.data | tr '\n' ' ')" \
	"--mode=count counts what the trace does"
limited "$CS" record --patch --mode=flight -o flight.data -- ./longjmp > /dev/null 2>&1
is "$(counts flight.data | tr '\n' ' ')" "$(counts trace.data | tr '\n' ' ')" \
	"--mode=flight counts what the trace does"

# A library loaded by dlopen is patched when the loader returns, while a
# thread of its own runs in it (int3 first, then the jump): no crash, the
# output unchanged, the program's own calls into it exact.
cc -O2 -g -shared -fPIC -o libpatch_plugin.so "$PROGS/patch_plugin.c" -lpthread
cc -O2 -g -o dl "$PROGS/patch_dlopen.c" -ldl
want=$(LD_LIBRARY_PATH=$WORK ./dl)
fails=0
for i in 1 2 3 4 5; do
	got=$(LD_LIBRARY_PATH=$WORK limited "$CS" record --patch=dl,libpatch_plugin -o dl.data -- ./dl 2> dl.err)
	[ "$got" = "$want" ] && [ "$(calls_of dl.data plugin_once)" = 7 ] || fails=$((fails + 1))
done
is "$fails" 0 "dlopen: 5 runs patched while a thread runs in the library, all right"
ok "$([ "$(calls_of dl.data plugin_leaf)" -gt 7000 ]; echo $?)" \
	"dlopen: the library's thread is traced from then on"

# W^X: no page is ever writable and executable at once, neither the text
# being patched nor the trampolines (a memfd mapped twice).
if command -v strace > /dev/null; then
	limited strace -f -o st.txt -e trace=mmap,mprotect "$CS" record --patch -o wx.data -- ./longjmp \
		> /dev/null 2>&1
	is "$(grep -c 'PROT_WRITE|PROT_EXEC' st.txt)/$(grep -c 'PROT_READ|PROT_EXEC, MAP_SHARED|MAP_FIXED_NOREPLACE.*= 0x' st.txt)/$(calls_of wx.data run_round)" \
		"0/2/50" "W^X: nothing writable and executable; the trampolines (calibration, program) run from a memfd's second view"
else
	skip "strace not installed"
fi

# Code that may not be made writable (SELinux without execmod; here a
# seccomp filter answers EACCES): one line says so, the program runs
# untraced and unchanged.
cc -O2 -o deny "$PROGS/deny_code_writes.c"
is "$(limited ./deny "$CS" record --patch -o deny.data -- ./longjmp 2> deny.err; echo "rc=$?")" \
	"$(./longjmp; echo "rc=$?")" "code not writable: output and exit status unchanged"
is "$(grep -c "cannot make the code of '.*longjmp' writable to patch it (Permission denied: SELinux" deny.err)/$(calls_of deny.data run_round)" \
	"1/0" "code not writable: said in one line with the remedy, nothing traced"

# callgrind on the very binary agrees
if command -v valgrind > /dev/null; then
	limited valgrind --tool=callgrind --callgrind-out-file=cg.out ./tailcall > /dev/null 2>&1
	"$ROOT/../shared/tools/callgrind-graph" cg.out --object /tailcall |
		awk '{ print $1 "=" $2 }' | sort > cg.txt
	# the program's named functions; ours has its library calls too
	grep '^[A-Za-z_]' cg.txt > cg-named.txt
	counts tailcall.data | awk -F= 'NR == FNR { want[$1] = 1; next } $1 in want' cg-named.txt - \
		> ours.txt
	is "$(wc -l < ours.txt)" "$(wc -l < cg-named.txt)" "tailcall: every function callgrind sees is traced"
	same_file cg-named.txt ours.txt "tailcall: counts equal callgrind's on the same binary"
else
	skip "valgrind not installed"
fi
done_testing
