#!/bin/sh
# The TSC rate of a recording is the ratio of the spans of two pairs of
# clock readings (TSC, CLOCK_MONOTONIC) the launcher takes before the
# program starts and after it ends.  A launcher held up between the two
# readings of a pair (preempted; on a loaded machine up to 11 us was seen)
# put the rate off by parts in a million, thousands of ns on a function
# that ran for seconds.  Each pair is now the tightest of a few tries.
# The shim holds every CLOCK_MONOTONIC reading that follows a quiet
# stretch 20 ms on each side (tests/inject/clock_stall.c), as at both ends
# of a run: the rate must still agree with a run's without the shim.
. "$(dirname "$0")/lib.sh"
needs_shims "$CLOCK_STALL"

plan 3
build_prog basic traced -O1 -pg
# ns per unit of a recording made by RUN... (the launcher's command line)
rate_of() {
	"$@" "$CS" record -o r.data -- ./traced 20 >/dev/null 2>err.txt || return 1
	"$CS" info -i r.data --json | jq -r '"\(.clock) \(.ns_per_clock_unit)"'
}
set -- $(rate_of env)
clock=${1:-} plain=${2:-}
if [ "$clock" != tsc ]; then
	skip "the recordings use the monotonic clock here: no TSC rate to measure"
	skip "as above"
	skip "as above"
	done_testing
fi
out=$(rate_of env LD_PRELOAD="$CLOCK_STALL")
ok $? "record ran with the stalling shim"
set -- $out
clock=${1:-} stalled=${2:-1}
is "$clock" tsc "the stalled run's clock is the TSC too"
off=$(awk -v a="$plain" -v b="$stalled" 'BEGIN { d = a / b - 1; print (d < 0 ? -d : d) < 0.001 ? 0 : 1 }')
ok "$off" "the TSC rate of a stalled run is within 0.1% of a plain run's (plain $plain, stalled $stalled ns per tick)"
done_testing
