#!/bin/sh
# record -e: counters read at every entry and exit, split into self and
# +children like time.  Software counters work everywhere; hardware ones
# are checked where the machine has them, and refused clearly where not.
# Counts a signal handler disturbed are marked possibly incorrect.  All of
# it holds in count mode too, where the program sums the counters per
# call path itself.
. "$(dirname "$0")/lib.sh"

plan 63
fn() { jq --arg f "$2" "[.functions[] | select(.name == \$f) | .$3] | add" "$1"; }
for run in trace:PG trace:CYG count:PG count:CYG; do
	mode=${run%:*}
	kind="${run#*:} $mode"
	eval flags=\$HOOK_FLAGS_${run#*:}
	# shellcheck disable=SC2086
	build_prog counters ct -O2 $flags
	limited "$CS" record --mode=$mode -e page-faults,context-switches -o c.data -- ./ct 1000 >/dev/null 2>&1
	"$CS" report -i c.data --json > r.json
	is "$(jq -r '.counters | join(",")' r.json)" "page-faults,context-switches" "$kind: the counters are named"
	pf=$(fn r.json touch_pages c1)
	ok $(( pf < 1000 || pf > 1100 )) "$kind: touch_pages' own page faults are about 1000 ($pf)"
	total=$(fn r.json outer c1_total)
	ok $(( total < pf )) "$kind: outer's page faults with children include them ($total)"
	own=$(fn r.json outer c1)
	ok $(( own > 100 )) "$kind: outer itself caused few ($own)"
	# the sleeps are library calls (usleep) under nap: with children
	cs=$(fn r.json nap c2_total)
	ok $(( cs < 5 )) "$kind: nap's 5 sleeps left the CPU at least 5 times ($cs)"
	"$CS" tree -i c.data --json > t.json
	is "$(jq '[.. | objects | select(has("c1")) | .c1] | add' t.json)" "$(jq '.tree.c1_total' t.json)" \
		"$kind: the tree's page faults (self) add up to the root's total exactly"
	is "$(jq '[.. | objects | select(has("c2")) | .c2] | add' t.json)" "$(jq '.tree.c2_total' t.json)" \
		"$kind: the same for context switches"
	"$CS" info -i c.data | grep -q "counters:     page-faults, context-switches, read with"
	ok $? "$kind: info says which counters and how they were read"
	# the cost of reading them was measured at start-up: a part of the
	# hooks' cost (timed separately, so allow for noise)
	cost=$("$CS" info -i c.data --json | jq '.counter_read_ns_per_call | floor')
	all=$("$CS" info -i c.data --json | jq '.overhead_ns_per_call | floor')
	ok $(( cost <= 0 || cost > 2 * all )) "$kind: reading the counters costs $cost ns of the $all ns a call's hooks cost"
	is "$(jq '[.functions[] | select(.counters_possibly_incorrect)] | length' r.json)" 0 \
		"$kind: no signal, no time-sharing: nothing is marked possibly incorrect"

	# shellcheck disable=SC2086
	build_prog counters_signal cs -O2 $flags
	limited "$CS" record --mode=$mode -e page-faults -o s.data -- ./cs >/dev/null 2>&1
	"$CS" report -i s.data --json > sr.json
	if [ "$(jq '.lost_events' sr.json)" -gt 0 ]; then
		is "$(jq '[.functions[] | select(.name == "tiny") | .counters_possibly_incorrect] | .[0]' sr.json)" \
			true "$kind: a handler inside a hook marks tiny possibly incorrect in the report"
		"$CS" tree -i s.data --json > st.json
		is "$(jq '[.. | objects | select(.name? == "tiny") | .counters_possibly_incorrect] | .[0]' st.json)" \
			true "$kind: and its node in the tree"
		"$CS" tree -i s.data | grep -q "tiny \[counters possibly incorrect\]"
		ok $? "$kind: the tree's text shows the mark"
		# the handler's calls dropped by the recursion guard are counted
		lost=$(jq .lost_events sr.json)
		is "$("$CS" info -i s.data --json | jq .lost_events) $(jq .lost_events st.json)" "$lost $lost" \
			"$kind: info and tree count the $lost events the guard dropped, as report does"
		# count mode keeps no events to replay
		[ "$mode" = count ] ||
			is "$("$CS" replay -i s.data --json | jq '[.threads[].lost_events] | add')" \
				"$lost" "$kind: and so does replay"
	else
		skip "$kind: no signal landed inside a hook this run"
		skip "$kind: no signal landed inside a hook this run"
		skip "$kind: no signal landed inside a hook this run"
		skip "$kind: no signal landed inside a hook this run"
		[ "$mode" = count ] || skip "$kind: no signal landed inside a hook this run"
	fi
done
"$CS" list --json > l.json
is "$(jq '[.[] | select(.name == "page-faults") | .supported] | .[0]' l.json)" true "list: page-faults is supported"
# an unprivileged user under perf_event_paranoid >= 2 is told why
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
why="needs root, setpriv, a callscope other users can run and kernel.perf_event_paranoid >= 2"
if [ "$(id -u)" = 0 ] && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ] &&
	command -v setpriv >/dev/null && nobody "$CS" list >/dev/null 2>&1; then
	is "$(nobody "$CS" list --json | jq -r '.[] | select(.name == "page-faults") | .state')" forbidden \
		"list: another user is told page-faults is forbidden, not unsupported"
	# record also needs the runtime: a checkout in a directory closed to
	# other users lets them start callscope through setpriv, not read it
	if nobody test -r "$BUILD/libcallscope.so"; then
		# the test's own directory is closed to other users
		pub=$(mktemp -d /tmp/callscope-pub.XXXXXX)
		chmod 755 "$pub"
		build_prog counters "$pub/ct" -O2 -finstrument-functions
		(cd / && nobody "$CS" record -e page-faults -o /dev/null/x -- "$pub/ct" 10) >/dev/null 2>err.txt
		rc=$?
		rm -rf "$pub"
		ok $(( rc != 1 || $(wc -l < err.txt) != 1 || $(grep -c "perf_event_paranoid=" err.txt) != 1 )) \
			"record -e as another user: one line naming perf_event_paranoid, exit 1"
	else
		skip "other users cannot read the runtime in this checkout's directory"
	fi
else
	skip "$why"
	skip "$why"
fi
if [ "$(jq '[.[] | select(.name == "instructions") | .supported] | .[0]' l.json)" = true ]; then
	build_prog counters ct -O2 -finstrument-functions
	limited "$CS" record -e instructions -o i.data -- ./ct 10 >/dev/null 2>&1
	ok $(( $("$CS" report -i i.data --json | jq '[.functions[].c1_total] | max') == 0 )) "instructions are counted"
	skip "the machine has hardware counters: nothing to refuse"
else
	limited "$CS" record -e instructions -o i.data -- ./ct 10 >/dev/null 2>err.txt
	rc=$?
	ok $(( rc == 0 || $(wc -l < err.txt) != 1 )) "instructions unsupported here: one line, non-zero exit"
	limited "$CS" record -e instructions,page-faults --skip-missing-events -o i.data -- ./ct 10 >/dev/null 2>err.txt
	is "$("$CS" report -i i.data --json | jq -r '.counters | join(",")')" "page-faults" \
		"--skip-missing-events records the rest"
fi
done_testing
