#!/bin/sh
# record --no-live: no control socket and no thread of the runtime's stay
# in the program (a program that counts its threads, as googletest's
# death tests and unshare(CLONE_NEWUSER) do, sees one); the recording is
# whole, in every mode; `live` says it cannot reach the process.
. "$(dirname "$0")/lib.sh"

plan 10
build_prog thread_count app -O2 $HOOK_FLAGS_PG
for mode in trace count sample; do
	limited "$CS" record -q --no-live --mode=$mode -o n.data -- ./app > out.txt 2> err.txt
	is "$?:$(cat out.txt)" "0:threads 1" "$mode --no-live: the program has one thread"
	if [ $mode = sample ]; then
		"$CS" info n.data | grep -q "exit: *exited with status 0"
		ok $? "$mode --no-live: the recording is whole"
	else
		is "$(calls_of n.data work)" 1000 "$mode --no-live: its calls are recorded"
	fi
done

# the control thread is there with --live: what the test above would
# see had the option no effect
limited "$CS" record -q --live -o d.data -- ./app > out.txt 2> err.txt
is "$(cat out.txt)" "threads 2" "with --live the runtime's control thread is there"

# the process cannot be reached: live says so in one line, and fails
limited "$CS" record -q --no-live -o h.data -- ./app hold > hold.txt 2>&1 &
for i in $(seq 200); do grep -q "^pid" hold.txt && break; sleep 0.05; done
"$CS" live "$(awk '$1 == "pid" { print $2 }' hold.txt)" status > live.txt 2>&1
rc=$?
touch release
wait
[ "$rc" -ne 0 ]
ok $? "live fails on a process recorded with --no-live"
echo "# $(cat live.txt)"
is "$(grep -c '^callscope' live.txt):$(wc -l < live.txt | tr -d ' ')" "1:1" "live says why in one line"
grep -q -- "recorded with --no-live" live.txt
ok $? "the line names --no-live as the reason"
done_testing
