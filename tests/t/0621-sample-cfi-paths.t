#!/bin/sh
# The stacks the signal handler finds with the call frame information are
# the ones DWARF unwinding of a stack copy finds offline (--stack=dwarf,
# the reference) where the copy reaches: a program with small frames,
# compared call path by call path (every path with 2 % of the samples or
# more in either recording is in the other).
. "$(dirname "$0")/lib.sh"

plan 4
build_prog sample_hot nofp -O2 -fomit-frame-pointer
limited "$CS" record -o a.data -- ./nofp stack 300 > /dev/null 2>&1
is "$?" 0 "the default method recorded the program"
limited "$CS" record --stack=dwarf -o d.data -- ./nofp stack 300 > /dev/null 2>&1
is "$?" 0 "--stack=dwarf recorded the program"
# the paths of 2 % of the samples or more, without their counts
paths() {
	"$CS" export -i "$1" -f folded | awk '{ n = $NF; $NF = ""; sub(/ $/, ""); c[$0] += n; t += n }
		END { for (p in c) if (c[p] >= t * 0.02) print p }' | sort
}
paths a.data > a.txt
paths d.data > d.txt
grep -q '^_start;.*;main;path_a;spin$' d.txt
ok $? "the reference reaches _start through path_a"
diff a.txt d.txt > diff.txt
ok $? "the handler's paths are the reference's: $(tr '\n' ' ' < diff.txt)"
done_testing
