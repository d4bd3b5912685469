#!/bin/sh
# --mode=count sums calls per call path inside the program: the same call
# paths and counts as a full trace of the same run, in bounded memory,
# surviving SIGKILL, with overflowing paths counted under <truncated>.
. "$(dirname "$0")/lib.sh"

plan 38
for kind in PG FENTRY CYG; do
	eval flags=\$HOOK_FLAGS_$kind
	for prog in basic cycle longjmp fork; do
		# shellcheck disable=SC2086
		build_prog $prog p -O2 $flags
		limited "$CS" record -o t.data -- ./p >/dev/null 2>&1
		limited "$CS" record --mode=count -o c.data -- ./p >/dev/null 2>&1
		call_paths t.data > t.txt
		call_paths c.data > c.txt
		cmp -s t.txt c.txt
		ok $? "$kind $prog: count mode has the trace's call paths and counts ($(wc -l < c.txt) paths)"
	done
	is "$("$CS" report -i c.data --json | jq '[.functions[].calls] | add')" \
		"$("$CS" report -i t.data --json | jq '[.functions[].calls] | add')" "$kind: the same number of calls in all"
	"$CS" export -i c.data --format=folded --value=calls -o - | sort > c.folded
	"$CS" export -i t.data --format=folded --value=calls -o - | sort > t.folded
	[ -s c.folded ] && cmp -s c.folded t.folded
	ok $? "$kind: exported call paths (folded, calls) are the trace's"
done
build_prog tree_deep deep -O2 -finstrument-functions
limited "$CS" record --mode=count=64 -o d.data -- ./deep 300 >/dev/null 2>&1
limited "$CS" record -o dt.data -- ./deep 300 >/dev/null 2>&1
is "$(calls_of d.data '<truncated>' | awk '{ print ($1 > 0) }')" 1 "paths past 64 nodes are counted under <truncated>"
is "$("$CS" info -i d.data --json | jq -c '[.count_nodes, .truncated_calls]')" \
	"[64,$(calls_of d.data '<truncated>')]" "info reports the 64 nodes used and the calls under <truncated>"
is "$("$CS" report -i d.data --json | jq '[.functions[].calls] | add')" \
	"$("$CS" report -i dt.data --json | jq '[.functions[].calls] | add')" "no call is lost to truncation"
"$CS" info -i d.data | grep -q "^mode:         count"
ok $? "info says count mode"
"$CS" replay -i d.data >/dev/null 2>err.txt
rc=$?
ok $(( rc == 0 || $(wc -l < err.txt) != 1 )) "replay refuses count mode with one line"
limited "$CS" record --mode=count -e page-faults,context-switches -o e.data -- ./deep 30 >/dev/null 2>&1
limited "$CS" record -e page-faults,context-switches -o et.data -- ./deep 30 >/dev/null 2>&1
call_paths e.data > e.txt
call_paths et.data > et.txt
cmp -s e.txt et.txt
ok $? "with counters read at every call, count mode still has the trace's paths and counts"
# the memory count mode uses depends on the call paths, not on the run's length
build_prog seq seq -O2 -finstrument-functions
limited "$CS" record --mode=count -o short.data -- ./seq 1000 >/dev/null 2>&1
limited "$CS" record --mode=count -o long.data -- ./seq 300000 >/dev/null 2>&1
short=$("$CS" info -i short.data --json | jq -c '[.count_nodes, .count_bytes]')
is "$("$CS" info -i long.data --json | jq -c '[.count_nodes, .count_bytes]')" "$short" \
	"300 times the calls, the same memory ($short nodes, bytes)"
"$CS" info -i long.data | grep -q "^count memory: .* records in .* bytes"
ok $? "info's text says how much memory count mode used"
"$CS" export -i long.data --format=chrome -o x.json >/dev/null 2>err.txt
rc=$?
ok $(( rc != 1 || $(wc -l < err.txt) != 1 )) "a Chrome timeline of count mode is refused in one line"
# with --call-stats, per-call statistics come from the program too: as
# many periods as a trace has (one less than the calls), a histogram of
# every call
limited "$CS" record -o longt.data -- ./seq 300000 >/dev/null 2>&1
limited "$CS" record --mode=count --call-stats -o longs.data -- ./seq 300000 >/dev/null 2>&1
periods() { "$CS" report -i "$1" --stats --json | jq -c '[.functions[] | [.name, .calls, .periods]] | sort'; }
is "$(periods longs.data)" "$(periods longt.data)" "report --stats: each function's calls and periods are the trace's"
is "$("$CS" report -i longs.data --histogram b --json | jq '[.calls, ([.buckets[].count] | add)]' | tr -d ' \n')" \
	"[$(calls_of longs.data b),$(calls_of longs.data b)]" "report --histogram b holds every call of b"
# without it, none: no number stands for them, and the views say why
is "$("$CS" report -i long.data --stats --json |
	jq -c '[.functions[] | select(.calls > 1) | [.min_ns, .max_ns, .stddev_ns, .periods, .period_max_ns]] | unique')" \
	'[[null,null,null,null,null]]' "without --call-stats: shortest, longest, spread and periods are null"
"$CS" report -i long.data --stats > rep.txt
ok $(( $(grep -c "^# per-call statistics not recorded: .* --call-stats" rep.txt) != 1 ||
	$(grep -cE " +- +- +- +- +- +-  b( |$)" rep.txt) != 1 )) \
	"without --call-stats: the report prints them as - and says why"
"$CS" report -i long.data --histogram b >/dev/null 2>err.txt
rc=$?
ok $(( rc != 1 || $(wc -l < err.txt) != 1 )) "without --call-stats: --histogram refuses in one line"
is "$("$CS" info -i long.data --json | jq -c '.call_stats'),$("$CS" info -i longs.data --json | jq -c '.call_stats')" \
	"false,true" "info says whether the per-call statistics were kept"
"$CS" record --mode=count --time-by=samples --call-stats -o x.data -- ./seq 3 >/dev/null 2>err.txt
rc=$?
ok $(( rc != 2 || $(wc -l < err.txt) != 1 )) "--call-stats with --time-by=samples is a usage error in one line"
"$CS" record --call-stats -o x.data -- ./seq 3 >/dev/null 2>err.txt
rc=$?
ok $(( rc != 2 || $(wc -l < err.txt) != 1 )) "--call-stats without --mode=count is a usage error in one line"
# two static functions of one name in one program are two functions, told
# apart by their addresses: each one's histogram holds its own calls once
for n in 3 5; do
	cat > "same$n.c" <<EOF
__attribute__((noinline)) static void same(void) { __asm__ volatile(""); }
void call$n(void) { for (int i = 0; i < $n; i++) same(); }
EOF
done
printf 'void call3(void);\nvoid call5(void);\nint main(void) { call3(); call5(); return 0; }\n' > twins.c
cc -O1 -pg -o twins twins.c same3.c same5.c
limited "$CS" record --mode=count --call-stats -o tw.data -- ./twins >/dev/null 2>&1
twin_histograms=$("$CS" report -i tw.data --json | jq -r '.functions[] | select(.name | startswith("same [")) | .name' |
	while read -r twin; do
		"$CS" report -i tw.data --histogram "$twin" --json | jq -c '[.calls, ([.buckets[].count] | add)]'
	done | sort | tr -d '\n')
is "$twin_histograms" "[3,3][5,5]" \
	"two static functions of one name: each histogram holds its own calls once"
build_prog spin spin -O2 -pg
rm -f fifo; mkfifo fifo
limited "$CS" record --mode=count -o s.data -- ./spin > fifo 2>/dev/null &
rec=$!
read -r pid < fifo
kill -KILL "$pid"
wait $rec
calls=$(calls_of s.data tick)
ok $(( calls < 10000 )) "SIGKILL: the calls counted before the kill are there ($calls)"
is "$("$CS" report -i s.data --json | jq '[.functions[] | select(.name=="main") | .virtual_returns] | add')" 1 \
	"SIGKILL: main, still running, is closed at the end"
done_testing
