#!/bin/sh
# The tree's header says what the report's says of the hooks' cost: the
# figure taken off library calls (which cost more than compiler hooks'
# calls) is in its sum, with where the figure came from.  The tree
# subtracted it from the times already, but its header and its --json
# overhead_ns left it out.
. "$(dirname "$0")/lib.sh"

plan 3
LIMIT=120
# tests/progs/libcall_loops.c, its library without hooks
cc -O2 -fPIC -shared -o libtiny.so "$PROGS/libcall_loops_lib.c" || exit 1
cc -O2 -pg -o calls "$PROGS/libcall_loops.c" -L. -ltiny -Wl,-rpath,'$ORIGIN' || exit 1
limited "$CS" record -q -o t.data -- ./calls 200000 > /dev/null
"$CS" report -i t.data | grep '^# hook overhead' > report.txt
"$CS" tree -i t.data | grep '^# hook overhead' > tree.txt
grep -q 'per library call' report.txt
ok $? "the report names the library calls' figure: $(cat report.txt)"
is "$(cat tree.txt)" "$(cat report.txt)" "the tree's header says the same"
is "$("$CS" tree -i t.data --json | jq .overhead_ns)" "$("$CS" report -i t.data --json | jq .overhead_ns)" \
	"so does its --json overhead_ns"
done_testing
