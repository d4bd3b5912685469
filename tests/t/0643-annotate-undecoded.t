#!/bin/sh
# annotate lists a function past bytes capstone cannot decode (capstone 4
# knows no VEX-encoded kmovd, which glibc's AVX-512 string functions
# have): the instruction makes one row of its own length and the listing
# goes on right after it, so that the instructions' samples still add up
# to the function's, as do the source lines'.
. "$(dirname "$0")/lib.sh"

plan 5
build_prog undecoded u -O2
limited "$CS" record -o s.data -- ./u 300000000 > /dev/null 2>&1
limited "$CS" annotate -i s.data behind > a.txt 2> err.txt
is "$?" 0 "annotate succeeds"
self=$("$CS" report -i s.data --json | jq '[.functions[] | select(.name == "behind") | .self_samples] | add')
grep -q "^ *[0-9]* *[0-9.]*  *[0-9a-f]* (4 bytes not decoded) " a.txt
ok $? "the kmovd is one row of 4 bytes not decoded"
is "$(grep -A2 '(4 bytes not decoded)' a.txt | awk '$4 == "nop"' | wc -l)" 2 "the two nops after it are listed"
sum=$(awk '/^# instructions/ { on = 1; next } on && /^[ >] *[0-9]/ { s += substr($0, 2) + 0 } END { print s + 0 }' a.txt)
is "$sum" "$self" "the instructions' samples add up to the function's"
lines=$(awk '/^# source lines/ { on = 1; next } /^# instructions/ { on = 0 } on && /^ *[0-9]/ { s += $1 } END { print s + 0 }' a.txt)
is "$lines" "$self" "the source lines' samples add up to the function's"
done_testing
