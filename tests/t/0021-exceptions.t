#!/bin/sh
# C++ exceptions, and pthread_exit's unwinding, through instrumented
# frames: the program behaves as it does alone (under -pg the unwinder must
# find the real return addresses, not the trampoline; destructors run),
# the counts are exact, the frames an exception left are closed as
# unwound, and the calls after a catch get the right caller.
. "$(dirname "$0")/lib.sh"

if ! command -v g++ > /dev/null 2>&1; then
	echo "1..0 # skip g++ is not installed"
	exit 0
fi

# caller_of G.JSON CALLEE: the callers of CALLEE, sorted, comma-separated.
caller_of() {
	jq -r --arg f "$2" '[.arcs[] | select(.callee == $f) | .caller] | unique | join(",")' "$1"
}

plan 60
g++ -O2 -o plain "$PROGS/exceptions.cc" -lpthread
expected=$(./plain)
for kind in PG FENTRY CYG; do
	for opt in -O0 -O2; do
		eval flags=\$HOOK_FLAGS_$kind
		name="$kind $opt"
		# shellcheck disable=SC2086
		g++ -g $opt $flags -o ex "$PROGS/exceptions.cc" -lpthread
		out=$(limited "$CS" record -o ex.data -- ./ex 2> err.txt)
		is "$?:$out" "0:$expected" "$name: exits 0 with the output it has alone"
		counts=""
		for fn in thrower middle cleanup_call rethrow_seen after_catch after_throw_site after_deep \
			inner_throw inner_caught outer_caught; do
			counts="$counts $(calls_of ex.data $fn)"
		done
		is "$counts" " 20 20 21 10 10 10 1 3 3 3" \
			"$name: exact counts through throw, cleanup, rethrow, a throw inside a destructor, pthread_exit"
		"$CS" graph -i ex.data --json > g.json
		is "$(caller_of g.json after_catch) $(caller_of g.json after_deep) $(caller_of g.json outer_caught)" \
			"play_round main main" \
			"$name: the calls after each catch have the catching function as caller"
		is "$(caller_of g.json rethrow_seen)" rethrower "$name: the handler that rethrows is its own caller"
		"$CS" report -i ex.data --json > r.json
		wall=$("$CS" info -i ex.data --json | jq '.threads[0].duration_ns')
		is "$(jq --argjson w "$wall" '[.functions[] | select(.total_ns > $w or .self_ns > .total_ns)] | length' r.json)" 0 \
			"$name: self <= total <= the thread's wall time"
		if [ "$kind" = CYG ]; then
			# the exit hooks run as cleanups while the exception passes
			skip "$name: -finstrument-functions sees every exit, nothing to repair"
			skip "$name: -finstrument-functions sees every exit, nothing to repair"
			skip "$name: -finstrument-functions sees every exit, nothing to repair"
			skip "$name: -finstrument-functions sees every exit, nothing to repair"
			skip "$name: -finstrument-functions sees every exit, nothing to repair"
			continue
		fi
		unwound() { jq --arg f "$1" '[.functions[] | select(.name == $f) | .unwound] | add' r.json; }
		is "$(unwound thrower) $(unwound middle) $(unwound rethrower)" "10 10 10" \
			"$name: the frames each exception left are closed as unwound"
		is "$(unwound play_round) $(unwound main)" "0 0" "$name: the catching frames are not"
		is "$(jq '[.functions[] | select(.name == "deep") | .unwound] | add' r.json)" \
			"$(calls_of ex.data deep)" "$name: every level of the deep recursion is closed as unwound"
		thrown() { jq --arg f "$1" '[.functions[] | select(.name == $f) | .thrown] | add' r.json; }
		is "$(thrown thrower) $(thrown middle) $(thrown deep)" "10 10 $(calls_of ex.data deep)" \
			"$name: an exception, not a longjmp, left them"
		"$CS" report -i ex.data > r.txt
		"$CS" replay -i ex.data > replay.txt
		is "$(grep -c ' thrower \[left by an exception\]\( \[[^]]*\]\)*$' r.txt):$(grep -c 'longjmp' r.txt replay.txt | paste -sd,)" \
			"1:r.txt:0,replay.txt:0" "$name: report and replay tag them as left by an exception"
	done
done
done_testing
