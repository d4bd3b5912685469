#!/bin/sh
# record --patch on programs built without hooks (-O2), end to end: the
# output and exit status unchanged, and the count of every function
# equal to the -pg build's of the same source, through longjmp, C++
# exceptions (thrown through patched frames), threads, swapcontext and
# tail calls; and equal to callgrind's on the very binary.  Functions
# -pg does not hook (the start-up code) or that the plan leaves out
# (.part and .cold parts, which -pg counts on their own) are not compared.
. "$(dirname "$0")/lib.sh"

plan 18
counts() {
	"$CS" report -i "$1" --json |
		jq -r '.functions[] | select(.name | test("^(_init|_fini|_start|frame_dummy|register_tm_clones|deregister_tm_clones|__do_global_dtors_aux)$|[.]part[.]|[.]cold") | not) | "\(.name)=\(.calls)"' |
		sort
}

# exact NAME COMPILER SOURCE: the patched -O2 build against the -pg build
exact() {
	name=$1
	"$2" -O2 -g -o "$name" "$3" -lpthread
	"$2" -O2 -g -pg -o "$name-pg" "$3" -lpthread
	is "$(limited "$CS" record --patch -o "$name.data" -- "./$name" 2> "$name.err"; echo "rc=$?")" \
		"$("./$name"; echo "rc=$?")" "$name: output and exit status unchanged"
	limited "$CS" record -o "$name-pg.data" -- "./$name-pg" > /dev/null 2>&1
	counts "$name-pg.data" > want.txt
	counts "$name.data" > got.txt
	same_file want.txt got.txt "$name: every count equals the -pg build's"
}
exact longjmp cc "$PROGS/longjmp.c"
exact exceptions g++ "$PROGS/exceptions.cc"
ok "$(grep -q '^cleanup_call=21$' got.txt; echo $?)" "exceptions: the destructors ran as the throws passed"
exact threads cc "$PROGS/threads.c"
ok "$(grep -q '^work=20001$' got.txt; echo $?)" "threads: every thread's calls counted"
exact coroutine cc "$PROGS/coroutine.c"
exact tailcall cc "$PROGS/tailcall.c"
exact cycle cc "$PROGS/cycle.c"

# the modes downstream: count mode and the flight recorder count the same
limited "$CS" record --patch --mode=count -o count.data -- ./longjmp > /dev/null 2>&1
limited "$CS" record --patch -o trace.data -- ./longjmp > /dev/null 2>&1
is "$(counts count.data | tr '\n' ' ')" "$(counts trace.data | tr '\n' ' ')" \
	"--mode=count counts what the trace does"
limited "$CS" record --patch --mode=flight -o flight.data -- ./longjmp > /dev/null 2>&1
is "$(counts flight.data | tr '\n' ' ')" "$(counts trace.data | tr '\n' ' ')" \
	"--mode=flight counts what the trace does"

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
