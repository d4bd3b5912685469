#!/bin/sh
# A flight recorder's ring is put in memory a stretch (an eighth) ahead of
# the writer, not whole as the thread starts: a thread that records a few
# hundred bytes keeps at most a quarter of its 1 MB ring resident (its two
# mappings' Rss, read from /proc while the program waits), and what it
# recorded is all there.  Before, every thread filled the whole ring.
. "$(dirname "$0")/lib.sh"

plan 4
build_prog calls_then_wait waiter -O2 -pg
rm -f fifo; mkfifo fifo
# the program's input stays open (fd 3 on the fifo) until the test is done
limited "$CS" record --mode=flight -o f.data -- ./waiter 100 < fifo > pid.txt 2> err.txt &
recorder=$!
exec 3> fifo
pid=
for _ in $(seq 100); do
	read -r pid < pid.txt 2> /dev/null && [ -n "$pid" ] && break
	sleep 0.1
done
# the Rss of the staging file's mappings of a ring's size (1024 kB)
awk '/^[0-9a-f]+-[0-9a-f]+ / { ring = ($NF ~ /\/\.callscope-[^/]*\/t-.*\.buf$/) }
	ring && /^Size:/ { big = ($2 == 1024) }
	ring && big && /^Rss:/ { rss += $2; n++ }
	END { printf "%d %d\n", n, rss }' "/proc/$pid/smaps" > rss.txt
exec 3>&-
wait $recorder
is "$?" 0 "the recording ends normally"
read -r mappings rss < rss.txt
is "$mappings" 2 "the ring is mapped twice"
ok "$((rss > 256))" "at most a quarter of the ring is resident while the thread waits: $rss kB"
is "$(calls_of f.data step)" 100 "the ring holds every call"
done_testing
