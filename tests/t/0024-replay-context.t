#!/bin/sh
# A replay window (--last, --time-range) begins with the calls open where
# it begins, marked as context, so that the stack at a crash is visible:
# main -> finish around the last call and the fault.
. "$(dirname "$0")/lib.sh"

# context_of JSON: the functions marked as context, in order.
context_of() {
	jq -r '[.threads[0].events[] | select(.context) | .function] | join(",")' "$1"
}

plan 10
build_prog crash cr -O2 -pg
limited "$CS" record -o c.data -- ./cr segv > /dev/null 2>&1
"$CS" replay -i c.data --last 1 > r.txt
"$CS" replay -i c.data --last 1 --json > r.json
is "$(context_of r.json)" "main,finish" "--last 1: main and finish, open at the fault, come first as context"
is "$(jq -r '[.threads[0].events[] | select(.context | not) | .kind] | join(",")' r.json)" "signal" \
	"--last 1: the one line asked for is still the last"
grep -q '^ *[0-9.]* *[0-9.]* [mu]*s *main .*\[context\]$' r.txt
ok $? "--last 1: the text marks main as context"
grep -q "1 of [0-9]* lines shown (and 2 open calls before them as context)" r.txt
ok $? "--last 1: the header counts the context apart"
# 15 columns of duration and gap, then 2 levels of indent under main
grep -q "^ *[0-9.]* \{19\}\*\*\* SIGSEGV" r.txt
ok $? "--last 1: the signal line is indented under its context"

# --last N from finish on: only main is context (N counts the library
# calls finish makes, when they are traced).
"$CS" replay -i c.data --json > a.json
n=$(jq '.threads[0].events | length - ([.[] | .function] | index("finish"))' a.json)
"$CS" replay -i c.data --last "$n" --json > r.json
is "$(context_of r.json)" "main" "--last $n: only main is context, finish is shown"

# --time-range from just after finish began: the same stack as context.
from=$(jq '[.threads[0].events[] | select(.function == "last_call") | .time_ns] | first' a.json)
"$CS" replay -i c.data --time-range "$from-" --json > t.json
is "$(context_of t.json)" "main,finish" "--time-range: the calls open at its start are context"

# Inside --filter, context stops at the filtered call.
"$CS" replay -i c.data --filter finish --last 1 --json > f.json
is "$(context_of f.json)" "finish" "--filter finish --last 1: finish is context, main is outside the filter"

# A whole history has no context.
is "$(context_of a.json)" "" "no window: nothing is context"

limited "$CS" record --mode=flight=64K -o fl.data -- ./cr segv > /dev/null 2>&1
"$CS" replay -i fl.data --last 1 --json > fl.json
is "$(context_of fl.json)" "main,finish" "flight mode, --last 1: main and finish as context"
done_testing
