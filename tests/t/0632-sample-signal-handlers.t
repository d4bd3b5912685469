#!/bin/sh
# A program's signal handler is a pseudo-call "<signal N>" in a trace;
# a run that only samples traces no call, and its handlers neither: the
# handler runs as the program's, info counts no call, and the report has
# no table of calls (before, one "<signal 17>" call made a second table
# of every sampled function at 0 calls).  With samples and traced calls
# (--mode=both), report --thread heads both tables with the thread's
# title (the samples' table came above it, under the thread before).
. "$(dirname "$0")/lib.sh"

plan 7
build_prog sample_signal plain -O2
build_prog sample_signal hooked -O2 -pg

limited "$CS" record --mode=sample -o s.data -- ./plain 50000000 > out.txt 2> err.txt
is "$?:$(cat out.txt)" "0:handled 1" "sampled: the program's handler runs, once"
is "$("$CS" info -i s.data --json | jq .calls)" 0 "sampled: no call traced, the handler's neither"
"$CS" report -i s.data > r.txt
grep -q '<signal' r.txt
ok $((! $?)) "sampled: no <signal N> row in the report"
grep -q '^ *self% *total% *self *total *function$' r.txt
ok $? "sampled: the samples' table"
grep -q 'calls *function$' r.txt
ok $((! $?)) "sampled: no table of calls"

limited "$CS" record --mode=both -o b.data -- ./hooked 50000000 > out.txt 2> err.txt
is "$?:$(cat out.txt)" "0:handled 1" "traced and sampled: the program runs unharmed"
"$CS" report -i b.data --thread > t.txt
awk '/^## thread / { titled = 1 } /^# samples:/ { seen = 1; if (!titled) bad = 1 }
	END { exit !(seen && !bad) }' t.txt
ok $? "traced and sampled: each thread's samples under its title"
done_testing
