#!/bin/sh
# Frame-pointer stacks give the callers: spin() is called for 80 % of its
# time from path_a() and 20 % from path_b(); report --lines puts the
# samples on spin's loop.  Without frame pointers, the default stack method
# (the call frame information, followed in the signal handler) and
# --stack=dwarf (DWARF unwinding of a copy) find the same callers, and
# --stack=fp counts its stacks as truncated instead of calling them whole.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/t/lib-sampling.sh"

plan 17
build_prog sample_hot st -O2 -fno-omit-frame-pointer
limited "$CS" record -o s.data -- ./st stack > /dev/null 2>&1
"$CS" report -i s.data --json > r.json
pct() { jq --arg f "$1" "[.functions[] | select(.name == \$f) | .$2] | add // 0" r.json; }
# the tick-grained fallback timer gives fewer distinct samples (see 0600)
m=10
[ "$(jq -r .sample_source r.json)" = tick-timer ] && m=15
spin=$(pct spin self_pct)
awk -v p="$spin" 'BEGIN { exit !(p >= 90) }'
ok $? "spin has nearly all the self samples ($spin)"
a=$(pct path_a total_pct)
awk -v p="$a" -v m=$m 'BEGIN { exit !(p >= 80 - m && p <= 80 + m) }'
ok $? "path_a's total_pct (from stacks) is 80 +- $m ($a)"
b=$(pct path_b total_pct)
awk -v p="$b" -v m=$m 'BEGIN { exit !(p >= 20 - m && p <= 20 + m) }'
ok $? "path_b's total_pct is 20 +- $m ($b)"
m=$(pct main total_pct)
awk -v p="$m" 'BEGIN { exit !(p >= 95) }'
ok $? "main is on (nearly) every stack ($m)"
# the program keeps frame pointers, libc (main's caller) does not: the
# walk goes on there with the call frame information (a sample or two may
# land elsewhere, as in the loader at start-up: the report then gives each
# method's share)
method=$(jq -r .stack_method r.json)
echo "$method" | cfi_share_at_least 90
ok $? "the report names the stack method ($method)"
is "$(jq -r .truncated_stacks r.json)" 0 "every stack reaches the thread's first frame"
"$CS" report -i s.data --lines --json > l.json
is "$(jq -r '.lines[0].function' l.json)" spin "--lines: the hottest line is in spin"
line=$(jq -r '.lines[0].line' l.json)
sed -n "${line}p" "$PROGS/sample_hot.c" | grep -Eq "x \+=|for \(long i"
ok $? "--lines: the hottest line is spin's loop (line $line)"

build_prog sample_hot nofp -O2 -fomit-frame-pointer
limited "$CS" record --stack=dwarf -o d.data -- ./nofp stack > /dev/null 2>&1
"$CS" report -i d.data --json > r.json
is "$(jq -r .stack_method r.json)" "DWARF unwinding" "--stack=dwarf: the report names the method"
a=$(pct path_a total_pct)
awk -v p="$a" -v m=$m 'BEGIN { exit !(p >= 80 - m && p <= 80 + m) }'
ok $? "--stack=dwarf without frame pointers: path_a's total_pct is 80 +- $m ($a)"
m=$(pct main total_pct)
awk -v p="$m" 'BEGIN { exit !(p >= 95) }'
ok $? "--stack=dwarf: main is on (nearly) every stack ($m)"

# by default a program without frame pointers is unwound in the handler
limited "$CS" record -o a.data -- ./nofp stack > /dev/null 2>&1
"$CS" report -i a.data --json > r.json
# a sample of the kernel's time at a system call of the start-up, inside
# libc, may take "then DWARF" (as 0620 says)
method=$(jq -r .stack_method r.json)
echo "$method" | cfi_share_at_least 95
ok $? "no frame pointers: the default followed the call frame information ($method)"
m=10
[ "$(jq -r .sample_source r.json)" = tick-timer ] && m=15
a=$(pct path_a total_pct)
awk -v p="$a" -v m=$m 'BEGIN { exit !(p >= 80 - m && p <= 80 + m) }'
ok $? "default stacks without frame pointers: path_a's total_pct is 80 +- $m ($a)"
s_=$(pct _start total_pct)
awk -v p="$s_" 'BEGIN { exit !(p >= 95) }'
ok $? "default stacks reach _start ($s_)"
"$CS" info -i a.data | grep -q '^samples: .*stacks by call frame information.*, 0 truncated'
ok $? "info names the stack method and the truncated stacks"

# frame pointers asked for where there are none: the stacks are cut short
limited "$CS" record --stack=fp -o f.data -- ./nofp stack > /dev/null 2>&1
"$CS" report -i f.data --json > r.json
n=$(jq .samples r.json)
t=$(jq .truncated_stacks r.json)
awk -v t="$t" -v n="$n" 'BEGIN { exit !(n > 0 && t >= n * 0.9) }'
ok $? "--stack=fp without frame pointers: the stacks count as truncated ($t of $n)"
# the tick timer's samples stand for several periods each: their truncated
# stacks count by the same weight as the samples
limited "$CS" record --sample-source=timer --stack=fp -o ft.data -- ./nofp stack > /dev/null 2>&1
"$CS" report -i ft.data --json > r.json
n=$(jq .samples r.json)
t=$(jq .truncated_stacks r.json)
[ "$n" -gt 0 ] && [ "$t" = "$n" ]
ok $? "--sample-source=timer: truncated stacks are counted by weight ($t of $n)"
done_testing
