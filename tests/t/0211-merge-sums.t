#!/bin/sh
# merge sums runs: the sum's counts, times and spread are those of its
# runs; its size depends on the program, not on how many runs went in;
# and a tree of merges, in any order, writes the same bytes as one merge.
. "$(dirname "$0")/lib.sh"

plan 11
build_prog export_work work -O2 -pg -fno-inline -fno-optimize-sibling-calls
for n in 1 2 3; do
	limited "$CS" record --mode=count --call-stats -o c$n.data -- ./work $n > /dev/null 2>&1
done
limited "$CS" record -o t.data -- ./work 2 > /dev/null 2>&1

"$CS" merge -o all.data c1.data c2.data c3.data t.data 2> /dev/null
ok $? "count-mode and traced runs sum into one file"
each=$(for f in c1 c2 c3 t; do calls_of $f.data burn; done | paste -sd+ | bc)
is "$(calls_of all.data burn) $(calls_of all.data leaf)" "$each 20000" \
	"calls are the runs' sums (burn $each, leaf 4 x 5000)"

"$CS" merge -o ab.data c1.data c2.data 2> /dev/null &&
	"$CS" merge -o abc.data ab.data c3.data 2> /dev/null &&
	"$CS" merge -o tabc.data t.data abc.data 2> /dev/null &&
	"$CS" merge -o ct.data c3.data t.data 2> /dev/null &&
	"$CS" merge -o rev.data ct.data c2.data c1.data 2> /dev/null &&
	cmp -s all.data tabc.data && cmp -s all.data rev.data
ok $? "((a+b)+c)+t, (c+t)+b+a and a+b+c+t are the same bytes"

self() { "$CS" report -i "$1" --json | jq '[.functions[] | select(.name == "burn") | .self_ns] | add'; }
sum=$(for f in c1 c2 c3 t; do self $f.data; done | paste -sd+ | bc)
is "$(self all.data)" "$sum" "burn's self time is the sum of the runs' to the nanosecond"

stat() { "$CS" report -i "$1" --stats --json | jq -r ".functions[] | select(.name == \"burn\") | .$2"; }
min=$(for f in c1 c2 c3 t; do stat $f.data min_ns; done | sort -n | head -1)
max=$(for f in c1 c2 c3 t; do stat $f.data max_ns; done | sort -n | tail -1)
is "$(stat all.data min_ns) $(stat all.data max_ns)" "$min $max" \
	"the shortest and longest call are the runs' shortest and longest"

"$CS" merge -o ten.data c1.data c1.data c1.data c1.data c1.data c1.data c1.data c1.data \
	c1.data c1.data 2> /dev/null
"$CS" merge -o two.data c1.data c1.data 2> /dev/null
is "$(wc -c < ten.data) $(calls_of ten.data burn)" "$(wc -c < two.data) 10" \
	"ten runs take the bytes of two, and count ten times"
is "$("$CS" info -i ten.data --json | jq -c .sum)" '{"runs":10,"processes":10,"threads":10}' \
	"info says how many runs, processes and threads are in the sum"

"$CS" tree -i all.data > tree.txt && "$CS" graph -i all.data > graph.txt &&
	"$CS" diff ab.data all.data > diff.txt && grep -q burn tree.txt && grep -q burn diff.txt &&
	"$CS" html -i all.data -o all.html 2> /dev/null && grep -q burn all.html &&
	"$CS" export -i all.data -f callgrind -o cg.out && grep -q burn cg.out
ok $? "tree, graph, diff, html and export read a sum"

build_prog sample_hot st -O2 -fno-omit-frame-pointer
limited "$CS" record -o s1.data -- ./st stack 300 > /dev/null 2>&1
limited "$CS" record -o s2.data -- ./st stack 200 > /dev/null 2>&1
"$CS" merge -o ss.data s1.data s2.data 2> /dev/null
samples() { "$CS" report -i "$1" --json | jq "[.functions[] | select(.name == \"$2\") | .$3] | add // 0"; }
is "$(samples ss.data spin self_samples) $(samples ss.data path_a samples)" \
	"$(($(samples s1.data spin self_samples) + $(samples s2.data spin self_samples))) $(($(samples s1.data path_a samples) + $(samples s2.data path_a samples)))" \
	"timer samples add up: spin's own, and path_a's with its callees"
"$CS" merge -o ss2.data s2.data s1.data 2> /dev/null && cmp -s ss.data ss2.data &&
	"$CS" export -i ss.data -f folded | grep -q 'path_a;spin'
ok $? "sampled runs sum in any order to the same bytes, their stacks kept"

printf 'CALLSCOPnonsense' > junk.data
"$CS" merge -o bad.data c1.data junk.data 2> err.txt
[ $? -eq 1 ] && [ "$(wc -l < err.txt)" -eq 1 ] && [ ! -e bad.data ]
ok $? "a damaged input: one line, no output: $(cat err.txt)"
done_testing
