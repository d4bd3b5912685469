#!/bin/sh
# export --format=pprof as continuous-profiling back ends read it, checked
# with Go's own pprof (Debian's golang-go): sample types with units, exact
# call counts and times, the mappings' build IDs, per-thread samples
# labelled with process, run, pid and tid; -traces, -top and -diff_base.
. "$(dirname "$0")/lib.sh"

command -v go > /dev/null || { echo "1..0 # SKIP go (golang-go) is not installed"; exit 0; }
plan 8
export HOME="$WORK" GOCACHE="$WORK/gocache" GOFLAGS=-mod=mod
pprof() { limited go tool pprof "$@" 2> pprof.err; }

build_prog threads thr -O1 -pg
limited "$CS" record -o thr.data -- ./thr > /dev/null 2>&1
"$CS" export -i thr.data -f pprof -o thr.pb.gz
pprof -raw thr.pb.gz > raw.txt
grep -q '^calls/count time/nanoseconds\[dflt\]' raw.txt
ok $? "sample types calls/count and time/nanoseconds, time the default"
id=$(readelf -n thr | awk '/Build ID/ { print $3 }')
grep -q "$id" raw.txt
ok $? "the mapping carries the program's build ID ($id)"

threads=$("$CS" info -i thr.data --json | jq '.threads | length')
pprof -traces thr.pb.gz > traces.txt
is "$(awk '$1 == "tid:" { print $2 }' traces.txt | sort -u | wc -l)" "$threads" \
	"-traces: samples per thread, each labelled with its tid ($threads threads)"
grep -q "process:  thr" traces.txt && grep -q "run:  20" traces.txt && grep -q "pid:" traces.txt
ok $? "-traces: process, run and pid labels"

top_calls() { pprof -sample_index=calls -nodefraction=0 -top "$@" | awk '$NF == "work" { print $1 }'; }
is "$(top_calls thr.pb.gz)" "$(calls_of thr.data work)" "-top -sample_index=calls: exact call counts"
self_ms=$("$CS" report -i thr.data --json | jq '.functions[] | select(.name == "main") | .self_ns / 1e6')
top_ms=$(pprof -top -unit=ms thr.pb.gz | awk '$NF == "main" { sub("ms", "", $1); print $1 }')
awk -v a="$self_ms" -v b="$top_ms" 'BEGIN { d = a - b; exit !(d < 0.01 && -d < 0.01) }'
ok $? "-top: self time as report says ($top_ms ms against $self_ms ms)"

build_prog export_work work -O2 -pg -fno-inline -fno-optimize-sibling-calls
limited "$CS" record -o a.data -- ./work 20 > /dev/null 2>&1
limited "$CS" record -o b.data -- ./work 30 > /dev/null 2>&1
"$CS" export -i a.data -f pprof -o a.pb.gz
"$CS" export -i b.data -f pprof -o b.pb.gz
diff_calls=$(pprof -sample_index=calls -nodefraction=0 -top -diff_base=a.pb.gz b.pb.gz | awk '$NF == "burn" { print $1 }')
is "$diff_calls" "10" "-diff_base: burn was called 10 more times in B"

"$CS" merge -o sum.data a.data b.data a.data 2> /dev/null
"$CS" export -i sum.data -f pprof -o sum.pb.gz
pprof -traces sum.pb.gz > sum.txt
grep -q "runs:  3" sum.txt &&
	[ "$(pprof -sample_index=calls -nodefraction=0 -top sum.pb.gz | awk '$NF == "burn" { print $1 }')" = 70 ]
ok $? "a sum of three runs: labelled runs 3, burn's 70 calls"
done_testing
