#!/bin/sh
# A disk too small for the runtime's buffers (a 2 MB tmpfs, in a mount
# namespace of its own): each thread records what fits, a thread that got
# no room at all still counts what it lost, record and info say events were
# lost, and the warning names the real reason (no space), so that
# recorded + lost == what the program did.
. "$(dirname "$0")/lib.sh"

if ! unshare -rm true 2> /dev/null; then
	plan 1
	skip "no mount namespace here (unshare -rm) for a small tmpfs"
	exit 0
fi
plan 6

build_prog fault_threads ft -O2 -finstrument-functions
limited "$CS" record --mode=trace --outside-freq=0 -o full.data -- ./ft 3 300000 > /dev/null 2>&1
all=$("$CS" info -i full.data --json | jq .events)

mkdir disk
cat > run.sh <<EOF2
mount -t tmpfs -o size=2m tmpfs disk || exit 99
"$CS" record --mode=trace --outside-freq=0 -o disk/small.data -- ./ft 3 300000 > /dev/null 2> err.txt
echo \$? > rc.txt
cp disk/small.data small.data
EOF2
LIMIT=60 limited unshare -rm sh run.sh
rc=$(cat rc.txt)
is "$rc" 0 "the program runs and its status is passed through"
# seen once in a full suite, with the warning of test 2 printed: say why
[ "$rc" = 0 ] || sed "s/^/#   /" err.txt >&2
grep -q "No space left on device" err.txt
ok $? "the warning names the reason" || sed "s/^/#   /" err.txt
! grep -q "No such file or directory\|Success" err.txt
ok $? "and no wrong one"
grep -q "some events were lost" err.txt
ok $? "record says events were lost"
"$CS" info -i small.data --json > info.json
kept=$(jq .events info.json)
lost=$(jq .lost_events info.json)
ok $(( lost == 0 )) "info counts the lost events ($lost; $kept kept)"
conserved small.data "$all" "a small disk"
done_testing
