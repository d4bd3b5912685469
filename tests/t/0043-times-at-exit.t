#!/bin/sh
# Calls still running when the program calls exit() end there by the
# thread's own clock: they are not charged the runtime's pauses (buffer
# growths in a trace, reserving records in count mode), which the thread's
# times leave out while the process's end time does not.
. "$(dirname "$0")/lib.sh"

plan 5
# total_us DATA FUNCTION: FUNCTION's total time in microseconds, the least
# of the recordings given (one run on a busy machine may be preempted)
total_us() {
	"$CS" report -i "$1" --json |
		jq -r --arg f "$2" '[.functions[] | select(.name == $f) | .total_ns] | add // -1 | . / 1000 | floor'
}
least() { sort -n | head -1; }

build_prog exit_open p -O2 -pg
# 2 M calls into 1 MiB chunks: some twenty growths of the buffer, whose
# pauses (milliseconds) the old end time charged to main and fin
for i in 1 2 3; do
	limited "$CS" record --chunk=1M -o t$i.data -- ./p 2000000 >/dev/null 2>&1
	total_us t$i.data fin
done > fin.txt
is "$(awk '$1 >= 0' fin.txt | wc -l)" 3 "trace: fin is in every recording"
fin=$(least < fin.txt)
# (some 80 us alone, and the least of three runs took 2.1 ms once beside a
# full suite; the growths' pauses it was charged before came to 20 ms and
# more)
ok $(( fin > 5000 )) "trace: fin, which only flushes, takes ${fin} us (< 5000), not the buffer growths'"
"$CS" report -i t1.data | grep -q 'fin \[still running at the end\]'
ok $? "trace: fin is still marked running at the end"

for i in 1 2 3; do
	limited "$CS" record --mode=count -o c$i.data -- ./p 1000 >/dev/null 2>&1
	total_us c$i.data fin
done > cfin.txt
fin=$(least < cfin.txt)
ok $(( fin < 0 || fin > 500 )) "count mode: fin takes ${fin} us (< 500), not the records' reservation"
min=$("$CS" report -i c1.data --json | jq '.functions[] | select(.name == "fin") | [.min_ns, .max_ns, .total_ns] | (.[0] == .[2] and .[1] == .[2])')
is "$min" true "count mode: a call still running at the end is its function's shortest and longest"
done_testing
