#!/bin/sh
# An unmodified Debian binary is sampled without recompiling: gzip -9 on
# generated data.
. "$(dirname "$0")/lib.sh"

plan 7
GZIP_BIN=$(command -v gzip)
if [ -z "$GZIP_BIN" ]; then
	for i in 1 2 3 4 5 6 7; do skip "gzip is not installed"; done
	exit 0
fi
# about 3 MB of hex text: compresses in a few tenths of a second
head -c 1000000 /dev/urandom | od -An -tx1 > gen.txt
limited "$CS" record -o g.data -- "$GZIP_BIN" -9 -c gen.txt > gen.gz 2> err.txt
is "$?" 0 "gzip ran under the sampler"
gzip -dc gen.gz | cmp -s - gen.txt
ok $? "its output is unchanged"
"$CS" report -i g.data --json > r.json
n=$(jq .samples r.json)
[ "$n" -ge 50 ]
ok $? "gzip was sampled ($n samples)"
in_gzip=$(jq --arg o "$(readlink -f "$GZIP_BIN")" \
	'[.functions[] | select(.object == $o) | .self_samples] | add // 0' r.json)
awk -v a="$in_gzip" -v n="$n" 'BEGIN { exit !(a >= n * 0.6) }'
ok $? "most samples are in gzip's own code ($in_gzip of $n)"

# gzip and libc have no frame pointers: their stacks come from DWARF
head -c 300000 /dev/urandom | od -An -tx1 > small.txt
limited "$CS" record --stack=dwarf -o d.data -- "$GZIP_BIN" -9 -c small.txt > small.gz 2>/dev/null
is "$?" 0 "gzip ran with --stack=dwarf"
"$CS" report -i d.data --json > d.json
is "$(jq -r .stack_method d.json)" "DWARF unwinding" "the report names the method"
top=$(jq '[.functions[] | select(.name | startswith("__libc_start_main")) | .total_pct] | max // 0' d.json)
awk -v p="$top" 'BEGIN { exit !(p >= 90) }'
ok $? "the stacks reach libc's __libc_start_main through gzip's frames ($top %)"
done_testing
