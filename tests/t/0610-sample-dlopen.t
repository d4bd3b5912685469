#!/bin/sh
# Samples in an object the program loads with dlopen() and closes before
# it ends are resolved to that object's functions: the runtime describes
# the loaded objects before each dlclose().
. "$(dirname "$0")/lib.sh"

plan 4
cc -O2 -g -fPIC -shared -o plugin.so "$PROGS/sample_plugin.c"
cc -O2 -g -o main "$PROGS/sample_dlopen.c" -ldl
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
done_testing
