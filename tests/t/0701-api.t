#!/bin/sh
# The in-program API (callscope.h) in every state, with and without the
# runtime; record --start-stopped; work done while stopped is absent.
. "$(dirname "$0")/lib.sh"

plan 13
cc -O1 -pg -I "$ROOT/include" -o api "$PROGS/live_api.c"

./api > plain.txt
is "$(awk '/^callscope_/ { print $2 }' plain.txt | sort -u)" "-1" \
	"without the runtime every call returns CALLSCOPE_ENOTLOADED"
grep -qx 'strerror(-1) the program does not run under callscope' plain.txt &&
	grep -qx 'strerror(99) unknown callscope error' plain.txt
ok $? "callscope_strerror works without the runtime, unknown codes too"

limited "$CS" record -o on.data -- ./api > on.txt 2> /dev/null
is "$(awk '/^callscope_/ { printf "%s ", $2 }' on.txt)" "1 0 -4 0 0 -3 1 0 " \
	"started: enabled, stop, stop again, enabled, start, start again, enabled, flush"
is "$(calls_of on.data hidden) $(calls_of on.data shown)" "3 4" \
	"the calls made while stopped are absent, the others all there"

limited "$CS" record --start-stopped -o off.data -- ./api > off.txt 2> /dev/null
is "$(awk '/^callscope_/ { printf "%s ", $2 }' off.txt)" "0 -4 -4 0 0 -3 1 0 " \
	"--start-stopped: capture begins off"
is "$(calls_of off.data hidden) $(calls_of off.data shown)" "0 4" \
	"--start-stopped: nothing before callscope_start()"

limited "$CS" record -o reset.data -- ./api reset > reset.txt 2> /dev/null
is "$(awk '/^callscope_reset/ { print $2 }' reset.txt)" "0" "reset succeeds while recording"
is "$(calls_of reset.data hidden) $(calls_of reset.data shown) $(calls_of reset.data after_reset)" "0 0 6" \
	"after a reset only the calls made since are there"
limited "$CS" record --mode=flight=64K -o reset-ring.data -- ./api reset > /dev/null 2>&1
is "$(calls_of reset-ring.data shown) $(calls_of reset-ring.data after_reset)" "0 6" \
	"the same in flight mode"

cc -O1 -pg -I "$ROOT/include" -o api_count "$PROGS/live_api.c"
limited "$CS" record --mode=count -o cnt.data -- ./api_count reset > cnt.txt 2> /dev/null
is "$(awk '/^callscope_stop/ { print $2; exit }' cnt.txt)" "-5" \
	"--mode=count: stop is CALLSCOPE_ENOTSUP"
is "$(awk '/^callscope_reset/ { print $2; exit }' cnt.txt)" "-5" \
	"--mode=count: reset is CALLSCOPE_ENOTSUP"

# the runtime loaded without a contract: inert, and says so
LD_PRELOAD="$BUILD/libcallscope.so" ./api > inert.txt
is "$(awk '/^callscope_enabled/ { print $2; exit }' inert.txt)" "-2" \
	"runtime loaded but not recording: CALLSCOPE_EINACTIVE"
is "$(awk '/^callscope_/ { print $2 }' inert.txt | sort -u)" "-2" \
	"... for every call"
done_testing
