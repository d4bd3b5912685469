#!/bin/sh
# A stripped program without frame pointers: its samples are grouped into
# functions by the FDEs that stripping leaves (named PROGRAM+0xSTART, the
# start nm gives the unstripped copy), with their callers; info names the
# object without symbols.  A separate debug file named by .gnu_debuglink
# gives the names back; libc's come from its debug file (libc6-dbg) found
# by build ID.
. "$(dirname "$0")/lib.sh"

plan 11
build_prog sample_hot full -O2 -fomit-frame-pointer
strip -o st full
limited "$CS" record -o s.data -- ./st stack 300 > /dev/null 2>&1
"$CS" report -i s.data --json > r.json
start_of() { printf 'st+0x%x' "$((0x$(nm full | awk -v f="$1" '$3 == f { print $1 }')))"; }
pct() { jq --arg f "$1" "[.functions[] | select(.name == \$f) | .$2] | add // 0" r.json; }
spin=$(start_of spin)
top=$(jq -r '[.functions[] | select(.self_samples > 0)] | max_by(.self_samples) | .name' r.json)
is "$top" "$spin" "the hottest function is named by spin's start"
rows=$(jq --arg o "$PWD/st" '[.functions[] | select(.object == $o)] | length' r.json)
[ "$rows" -ge 3 ] && [ "$rows" -le 8 ]
ok $? "the stripped program gives one row per function, not per address ($rows rows)"
m=10
[ "$(jq -r .sample_source r.json)" = tick-timer ] && m=15
a=$(pct "$(start_of path_a)" total_pct)
awk -v p="$a" -v m=$m 'BEGIN { exit !(p >= 80 - m && p <= 80 + m) }'
ok $? "its callers are found: path_a's start has 80 +- $m % with callees ($a)"
s=$(pct "$(start_of spin)" self_pct)
awk -v p="$s" 'BEGIN { exit !(p >= 90) }'
ok $? "spin's start has the self samples ($s %)"
"$CS" info -i s.data > info.txt
grep -q "^symbols: .*1 object without symbols" info.txt && grep -q "^  $PWD/st (no package owns it" info.txt
ok $? "info names the object without symbols"
is "$("$CS" info -i s.data --json | jq -r '.objects_without_symbols[].path')" "$PWD/st" \
	"info --json lists it"

# the debug part kept aside and linked by name, as packagers do
objcopy --only-keep-debug full dl.debug
strip -o dl full
objcopy --add-gnu-debuglink=dl.debug dl
limited "$CS" record -o l.data -- ./dl stack 100 > /dev/null 2>&1
"$CS" report -i l.data --json > l.json
is "$(jq -r '[.functions[] | select(.self_samples > 0)] | max_by(.self_samples) | .name' l.json)" \
	spin "a .gnu_debuglink file names the stripped program's functions"
jq -e '[.functions[] | select(.name == "path_a" and .total_pct > 50)] | length == 1' l.json > /dev/null
ok $? "with their callers"
"$CS" info -i l.data | grep -q "^  .*/dl (no package"
ok $((! $?)) "info does not list a program whose debug file was found"

libc=$(ldd ./st | awk '/libc.so/ { print $3 }')
if [ -n "$libc" ] && [ -d /usr/lib/debug/.build-id ] && dpkg-query -W libc6-dbg > /dev/null 2>&1; then
	jq -e '[.functions[] | select(.name == "__libc_start_call_main")] | length == 1' r.json > /dev/null
	ok $? "libc's local functions are named from its separate debug file"
	grep -q "libc.so" info.txt
	ok $((! $?)) "info does not list libc, whose debug file was found"
else
	skip "libc6-dbg is not installed"
	skip "libc6-dbg is not installed"
fi
done_testing
