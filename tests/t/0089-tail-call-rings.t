#!/bin/sh
# Loops of tail calls through many functions (a state machine whose states
# jump to each other) run in a constant real stack but fill the shadow
# stack: at its last slot the loop is folded, whatever its length up to
# 64 functions, and every call is counted; a longer loop loses the calls
# past the last slot, counted as lost, and the program runs on unharmed
# (it used to be killed by SIGSEGV once the loop was longer than 8).
. "$(dirname "$0")/lib.sh"

plan 9
LIMIT=60
# ring_program N: N functions, each of which tail-calls the next, the last
# the first; main enters the ring for CALLS calls in all
ring_program() {
	{
		echo '#include <stdio.h>'
		echo '#include <stdlib.h>'
		echo 'static long left;'
		i=0
		while [ $i -lt "$1" ]; do echo "long f$i(long);"; i=$((i + 1)); done
		i=0
		while [ $i -lt "$1" ]; do
			echo "__attribute__((noinline)) long f$i(long x)"
			echo "{ if (--left <= 0) return x; return f$(((i + 1) % $1))(x + $i); }"
			i=$((i + 1))
		done
		echo 'int main(int argc, char **argv)'
		printf '%s\n' '{ left = atol(argv[1]); printf("%ld\n", f0(0)); return 0; }'
	} > ring$1.c
	cc -O2 -pg -o ring$1 ring$1.c
}
# ring_calls DATA: the calls of the ring's functions, summed
ring_calls() {
	"$CS" report -i "$1" --json | jq '[.functions[] | select(.name | test("^f[0-9]+$")) | .calls] | add'
}

for n in 9 64; do
	ring_program $n
	out=$(limited "$CS" record -o r$n.data -- ./ring$n 1000000 2> /dev/null)
	is "$?:$out" "0:$(./ring$n 1000000)" "a loop of $n tail-calling functions runs as it does alone"
	is "$(ring_calls r$n.data)/$("$CS" report -i r$n.data --json | jq .lost_events)" "1000000/0" \
		"a loop of $n: every call counted, none lost"
done
limited "$CS" record --mode=count -o c9.data -- ./ring9 1000000 > /dev/null 2>&1
is "$(ring_calls c9.data)" 1000000 "--mode=count: a loop of 9, every call counted"

ring_program 70
out=$(limited "$CS" record -o r70.data -- ./ring70 1000000 2> err.txt)
is "$?:$out" "0:$(./ring70 1000000)" "a loop of 70, longer than the fold reaches: the program runs unharmed"
lost=$("$CS" report -i r70.data --json | jq .lost_events)
ok $(( lost > 0 ? 0 : 1 )) "a loop of 70: the calls past the last slot are counted as lost ($lost)"
grep -q "lost" err.txt
ok $? "record warns that events were lost"
"$CS" info -i r70.data | grep -q "exited with status 0"
ok $? "the process exited normally"
