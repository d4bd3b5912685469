#!/bin/sh
# A program that closes the descriptors it did not open and opens files
# of its own under the same numbers keeps those files as it wrote them:
# the runtime writes its sections through a descriptor of its own, and a
# thread buffer that must grow once its file is gone stops (the rest
# counted lost) instead of growing into the program's file.  A server
# listening under the control socket's old number gets all its
# connections: the control thread takes none.  A thread's sampling
# event is closed at its end only if it still is that event.
. "$(dirname "$0")/lib.sh"

# The runtime keeps its descriptors above the soft descriptor limit where
# the hard one leaves room (tests/t/0055, 0058); what is checked here is
# the program taking them, which happens where there is none.
ulimit -n "$(ulimit -Sn)"

plan 16
build_prog close_fds closer -O2 -pg
./closer 1000 > want.txt
files_intact() {
	for i in 0 1 2 3 4 5 6 7; do
		[ "$(cat closed_fds.$i)" = "file $i" ] || { echo "closed_fds.$i: $(wc -c < closed_fds.$i) bytes"; return; }
	done
	echo intact
}
for mode in trace count; do
	limited "$CS" record --mode=$mode -o c.data -- ./closer 1000 > got.txt 2> err.txt
	is "$?/$(cmp -s want.txt got.txt && echo same)" "0/same" "$mode: the program runs as without the profiler"
	is "$(files_intact)" intact "$mode: its files hold what it wrote, nothing of ours"
	is "$("$CS" info c.data | grep -c 'did not exit normally')" 0 "$mode: the process's end is recorded"
	is "$(calls_of c.data step)" 1000 "$mode: every call counted"
done
# Many calls after the files are opened: the buffer must grow past its
# first small chunk, with its file's descriptor closed.
./closer 400000 > want.txt
limited "$CS" record --chunk=64K -o g.data -- ./closer 400000 > got.txt 2> err.txt
is "$?/$(cmp -s want.txt got.txt && echo same)" "0/same" "growth: the program runs as without the profiler"
is "$(files_intact)" intact "growth: its files hold what it wrote"
lost=$("$CS" info g.data | sed -n 's/^lost events: *//p')
ok "$([ "${lost:-0}" -gt 0 ]; echo $?)" "growth: the calls it could not keep are counted lost ($lost)"
is "$("$CS" info g.data | grep -c 'did not exit normally')" 0 "growth: the process's end is recorded"
build_prog closed_fds_listen server -O2 -pg
limited "$CS" record -o s.data -- ./server > got.txt 2> err.txt
is "$?/$(cat got.txt)" "0/accepted 16 of 16" "server: every connection is the program's"
build_prog closed_fds_thread ender -O2 -pg -pthread
for mode in trace "count --time-by=samples" sample; do
	# shellcheck disable=SC2086
	limited "$CS" record --mode=$mode -o e.data -- ./ender > got.txt 2> err.txt
	is "$?/$(cat got.txt)" "0/closed behind its back: 0" "thread end, $mode: the program's descriptors stay open"
done
done_testing
