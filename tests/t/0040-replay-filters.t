#!/bin/sh
# Full-trace replay of a program with known call paths: every call is in
# it, and --tid, --filter, --depth, --time-range, --min-duration and
# --last keep exactly the calls they describe.  Wrong values get one line
# and a non-zero exit.
. "$(dirname "$0")/lib.sh"

plan 28
# calls FILE [JQ-CONDITION]: how many call events of FILE meet the
# condition; the calls a window shows as context (tests/t/0024) are not
# among them.
calls() { jq "[.threads[].events[] | select(.kind == \"call\" and (.context | not)) | select(${2:-true})] | length" "$1"; }
for kind in PG CYG; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	# the paths as written: no tail calls, no inlining, no clones
	build_prog tree_paths tp -O2 $flags -fno-optimize-sibling-calls -fno-inline \
		-fno-ipa-sra -fno-ipa-cp -fno-ipa-icf -fno-partial-inlining
	# without library calls: the windows below count the program's own
	limited "$CS" record --no-libcall -o t.data -- ./tp >/dev/null 2>&1
	"$CS" replay -i t.data --json > all.json
	"$CS" report -i t.data --json > r.json
	is "$(calls all.json)" "$(jq '[.functions[].calls] | add' r.json)" \
		"$kind: the replay holds every call the report counts"

	wtid=$(jq '.threads[] | select(any(.events[]; .function == "worker")) | .tid' all.json)
	"$CS" replay -i t.data --json --tid "$wtid" > w.json
	is "$(jq -c '[.threads[].tid]' w.json) $(calls w.json)" "[$wtid] 11" \
		"$kind: --tid keeps the worker thread alone: worker and its 10 shared"

	"$CS" replay -i t.data --json --filter rec > f.json
	is "$(jq -c '[.threads[].events[] | .function]' f.json)" '["rec","rec","rec","rec","leaf"]' \
		"$kind: --filter rec keeps the recursion and the leaf it calls, nothing else"
	"$CS" replay -i t.data --json --filter rec --depth 2 > fd.json
	is "$(jq -c '[.threads[].events[] | .function]' fd.json)" '["rec","rec"]' \
		"$kind: --depth 2 counts from the filtered call"
	"$CS" replay -i t.data --json --depth 2 > d.json
	is "$(calls d.json)" "$(calls all.json '.depth < 2')" \
		"$kind: --depth 2 keeps the calls of depth 0 and 1 ($(calls d.json))"
	"$CS" replay -i t.data --filter tp:work_b --depth 1 > fb.txt
	is "$(grep -c ' work_b$' fb.txt)" 5 "$kind: --filter OBJECT:NAME works: 5 work_b calls"

	# a window from the 10th to the 20th call of the main thread
	main_event() { jq --argjson w "$wtid" ".threads[] | select(.tid != \$w) | .events[$1].time_ns" all.json; }
	from=$(main_event 9)
	to=$(main_event 19)
	"$CS" replay -i t.data --json --time-range "$from-$to" > tr.json
	want=$(calls all.json ".time_ns >= $from and .time_ns <= $to")
	is "$(calls tr.json)" "$want" "$kind: --time-range keeps the $want calls that began inside it"
	ok "$(( $(calls tr.json) < 11 ))" "$kind: at least the 11 calls of the main thread's window"

	min=$(jq '[.threads[].events[] | select(.kind == "call") | .duration_ns] | sort | .[length / 2 | floor]' all.json)
	"$CS" replay -i t.data --json --min-duration "$min" > m.json
	is "$(calls m.json)" "$(calls all.json ".duration_ns >= $min")" \
		"$kind: --min-duration $min keeps only the calls that long or longer"
	is "$(calls m.json ".duration_ns < $min")" 0 "$kind: no shorter call shown"

	"$CS" replay -i t.data --json --last 4 > l.json
	is "$(jq -c --argjson w "$wtid" '[.threads[] | select(.tid != $w) | .events[] | select(.context | not) | .function]' l.json)" \
		'["ping","pong","ping","pong"]' "$kind: --last 4: the main thread ends with ping pong ping pong"
done
fails() {
	"$CS" replay -i t.data "$@" >/dev/null 2>err.txt
	rc=$?
	ok $(( rc == 0 || $(wc -l < err.txt) != 1 )) "replay $*: one line, non-zero exit ($rc)"
}
fails --filter no_such_function
fails --filter tree_paths.c:rec
fails --time-range 5ms-1ms
fails --time-range 10
fails --min-duration 3parsecs
fails --depth -1
done_testing
