#!/bin/sh
# Per-function timing statistics: standard deviation of the call
# durations, the period between consecutive calls (per thread), and
# report --histogram, on a program with known sleeps and call spacing,
# under every hook kind, traced and in count mode (where the program
# itself sums each function's calls, asked to with --call-stats).
. "$(dirname "$0")/lib.sh"

# field FUNCTION KEY: a number from r.json.
field() { jq --arg f "$1" ".functions[] | select(.name == \$f) | .$2" r.json; }

plan 85
for run in trace:PG trace:FENTRY trace:CYG count:PG count:FENTRY count:CYG; do
	mode=${run%:*}
	kind="${run#*:} $mode"
	eval flags=\$HOOK_FLAGS_${run#*:}
	stats=
	[ "$mode" = count ] && stats=--call-stats
	# shellcheck disable=SC2086
	build_prog tree_timing tt -O2 $flags -fno-optimize-sibling-calls -fno-inline -fno-ipa-cp
	# shellcheck disable=SC2086
	limited "$CS" record --mode=$mode $stats -o s.data -- ./tt >/dev/null 2>&1
	"$CS" report -i s.data --json > r.json
	is "$?" 0 "$kind: report --json runs"

	is "$(field tick periods)" 17 "$kind: tick has 17 periods (9 + 4 + 4: never across threads)"
	is "$(field once periods) $(field once period_avg_ns) $(field once stddev_ns)" "0 0 0" \
		"$kind: a function called once has no period and no spread"
	main_tid=$("$CS" info -i s.data --json | jq '[.threads[] | select(.calls > 11)][0].tid')
	"$CS" report -i s.data --json --tid="$main_tid" > r.json
	is "$(field tick periods)" 9 "$kind: --tid: tick's 9 periods on the main thread"
	min=$(field tick period_min_ns) avg=$(field tick period_avg_ns) max=$(field tick period_max_ns)
	[ "$min" -ge 1999000 ] && [ "$min" -le "$avg" ] && [ "$avg" -le "$max" ]
	ok $? "$kind: the main thread's ticks are >= 2 ms apart (min $min <= avg $avg <= max $max)"

	"$CS" report -i s.data --json > r.json
	sd=$(field nap stddev_ns) nmin=$(field nap min_ns) nmax=$(field nap max_ns)
	[ "$sd" -gt 0 ] && [ "$sd" -le $(( (nmax - nmin) / 2 + 1 )) ] && [ "$sd" -ge 5000000 ]
	ok $? "$kind: nap's stddev ($sd ns) is >= 5 ms and within (max - min) / 2"

	"$CS" report -i s.data --histogram nap --json > h.json
	is "$?" 0 "$kind: report --histogram --json runs"
	is "$(jq '[.buckets[].count] | add' h.json) $(jq .calls h.json)" "8 8" \
		"$kind: the histogram holds every call of nap"
	if [ "$mode" = trace ]; then
		# a loaded machine can stretch the 1 ms naps too: count the long
		# calls the replay shows, at least the two 20 ms naps
		long=$("$CS" replay -i s.data --json |
			jq '[.threads[].events[] | select(.function == "nap" and .duration_ns >= 16777216)] | length')
		is "$(jq '[.buckets[] | select(.min_ns >= 16777216) | .count] | add' h.json)" "$long" \
			"$kind: the buckets from 16.8 ms up hold the $long naps that long (>= 2)"
		ok $(( long < 2 )) "$kind: the two 20 ms naps are among them"
		is "$(jq '[.buckets[] | select(.max_ns + 1 != 2 * .min_ns and .min_ns > 0)] | length' h.json)" 0 \
			"$kind: buckets are powers of two"
	else
		# the runtime bucketed clock units: powers of two of those
		long=$(jq '[.buckets[] | select(.max_ns >= 20000000) | .count] | add' h.json)
		ok $(( long < 2 )) "$kind: the buckets reaching 20 ms hold the two 20 ms naps ($long)"
		is "$(jq '[.buckets as $b | range(1; $b | length) | select($b[.].min_ns != $b[. - 1].max_ns + 1)] | length' h.json)" 0 \
			"$kind: each bucket begins where the one before ends"
	fi
	is "$(jq .stddev_ns h.json)" "$sd" "$kind: the histogram's stddev is the report's"

	"$CS" report -i s.data --histogram tt:nap > h.txt
	grep -q "^# call durations of 'nap'" h.txt &&
		[ "$(grep -c '^ *[0-9.]* [num]*s ' h.txt)" -eq "$(jq '.buckets | length' h.json)" ]
	ok $? "$kind: the text histogram has one row per bucket, and OBJECT:NAME works"
	"$CS" report -i s.data --stats | grep -q 'stddev   period min   period avg   period max  function$'
	ok $? "$kind: --stats adds the stddev and period columns"
done
"$CS" report -i s.data --histogram nap --thread >/dev/null 2>&1
is "$?" 2 "--histogram with --thread is a usage error"
"$CS" report -i s.data --histogram nope >/dev/null 2>err.txt
is "$?" 1 "--histogram of an unknown function fails"
grep -q "no function 'nope' ran" err.txt
ok $? "--histogram of an unknown function says so"
"$CS" report -i s.data --json | jq -e '.functions[0] | has("stddev_ns") and has("period_min_ns") and
	has("period_avg_ns") and has("period_max_ns")' >/dev/null
ok $? "the JSON report carries stddev_ns and period_min/avg/max_ns"
done_testing
