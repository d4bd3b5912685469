#!/bin/sh
# annotate reads a function that ends its object's .text: a sample there
# asks for an instruction's longest length past its PC, which runs past
# the section's end; only the bytes there are read, and the listing is
# objdump's of the same bytes.
. "$(dirname "$0")/lib.sh"

plan 4
build_prog text_end te -O2
limited "$CS" record -o s.data -- ./te > /dev/null 2>&1
limited "$CS" annotate -i s.data spin > a.txt 2> err.txt
is "$?" 0 "annotate succeeds ($(head -1 err.txt))"
self=$("$CS" report -i s.data --json | jq '[.functions[] | select(.name == "spin") | .self_samples] | add')
sum=$(awk '/^# instructions/ { on = 1; next } on && /^[ >] *[0-9]/ { s += substr($0, 2) + 0 } END { print s + 0 }' a.txt)
is "$sum" "$self" "the instructions' samples add up to the function's"
ours=$(awk '/^# instructions/ { on = 1; next } on && /^[ >] *[0-9]/ { $0 = substr($0, 2); print $3 }' a.txt | tr '\n' ' ')
theirs=$(objdump -d --disassemble=spin te | awk '/^ *[0-9a-f]+:\t/ { sub(":", "", $1); print $1 }' | tr '\n' ' ')
is "$ours" "$theirs" "the instructions are objdump's, none past the end"
tail=$(awk '/^# instructions/ { on = 1; next } on && /^[ >] *[0-9]/ { $0 = substr($0, 2); last = $4 } END { print last }' a.txt)
is "$tail" "ret" "the last is spin's ret"
done_testing
