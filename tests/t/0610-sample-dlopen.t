#!/bin/sh
# Objects the program loads with dlopen() are known to the sampler: the
# runtime describes them before each dlclose(), and as it notices them
# (within a quarter second, from its control thread, which this
# single-threaded program has only with record --live), so their samples
# resolve to their functions even when they are closed before the end,
# stacks pass through their frames, --only matches them, and a live
# snapshot names them.
. "$(dirname "$0")/lib.sh"

plan 8
cc -O2 -g -fno-omit-frame-pointer -fPIC -shared -o plugin.so "$PROGS/sample_plugin.c"
cc -O2 -g -fno-omit-frame-pointer -o main "$PROGS/sample_dlopen.c" -ldl
limited "$CS" record -o d.data -- ./main "$PWD/plugin.so" > out.txt 2> /dev/null
is "$?:$(cat out.txt)" "0:closed 0" "the program and its dlclose run unchanged"
"$CS" report -i d.data --json > r.json
is "$(jq -r '[.functions[] | select(.self_samples > 0)] | max_by(.self_samples) | "\(.name) \(.object)"' r.json)" \
	"plugin_hot $PWD/plugin.so" "the closed plugin's function has the most samples"
p=$(jq '[.functions[] | select(.name == "plugin_hot") | .self_pct] | add // 0' r.json)
awk -v p="$p" 'BEGIN { exit !(p >= 60 && p <= 90) }'
ok $? "plugin_hot has 75 +- 15 % of the samples ($p)"
n=$(jq '.samples' r.json)
o=$(jq '.outside_samples // 0' r.json)
[ "$o" -le $((n / 50)) ]
ok $? "(almost) no sample is outside any known object ($o of $n)"
o=$(jq '[.functions[] | select(.name == "plugin_outer") | .total_pct] | add // 0' r.json)
m=$(jq '[.functions[] | select(.name == "main") | .total_pct] | add // 0' r.json)
awk -v o="$o" -v m="$m" 'BEGIN { exit !(o >= 60 && m >= 95) }'
ok $? "stacks pass through the plugin's frames to main (plugin_outer $o %, main $m %)"

limited "$CS" record --live --only=plugin -o o.data -- ./main "$PWD/plugin.so" > /dev/null 2>&1
"$CS" report -i o.data --json > o.json
n=$(jq '.samples' o.json)
elsewhere=$(jq --arg o "$PWD/plugin.so" '[.functions[] | select(.self_samples > 0 and .object != $o)] | length' o.json)
[ "$n" -ge 50 ] && [ "$elsewhere" -eq 0 ]
ok $? "--only names an object loaded later: its samples alone are kept ($n)"

mkdir -m 700 xdg
XDG_RUNTIME_DIR="$WORK/xdg"
export XDG_RUNTIME_DIR
LIMIT=60 limited "$CS" record --live -o l.data -- ./main "$PWD/plugin.so" live > /dev/null 2>&1 &
rec=$!
wait_live_socket
sleep 1
"$CS" live "$pid" snapshot -o snap.data 2> /dev/null
is "$("$CS" report -i snap.data --json |
	jq -r '[.functions[] | select(.self_samples > 0)] | max_by(.self_samples) | "\(.name) \(.object)"')" \
	"plugin_hot $PWD/plugin.so" "a snapshot names the function of the plugin still loaded"
touch quit
wait $rec
is "$?" 0 "the program ends with its own status"
done_testing
