#!/bin/sh
# What makes a function hot: its calls (the default) or its self time
# (--weight=time).  busy() is called once and runs a long loop; tiny() is
# called a thousand times and does nothing.  By calls tiny is the hotter
# and joins main's cluster first; by time busy does.  The loop outweighs
# tiny's calls by three orders of magnitude, so a loaded machine cannot
# swap them.  dense-chains shows it: it takes functions by heat per byte
# (cache-sort, the default, merges by the calls between functions and
# uses the heat only to weigh chains against each other).
. "$(dirname "$0")/lib.sh"

plan 7

cat >weight.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>

volatile unsigned sink;

__attribute__((noinline)) void busy(long n)
{
	unsigned x = 1;
	for (long i = 0; i < n; i++)
		x = x * 1664525u + 1013904223u;
	sink = x;
}

__attribute__((noinline)) void tiny(unsigned i)
{
	sink += i;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	busy(n);
	for (unsigned i = 0; i < 1000; i++)
		tiny(i);
	printf("%u\n", sink);
	return 0;
}
EOF
cc -O2 -g -pg -ffunction-sections -o weight weight.c
limited "$CS" record -o w.data -- ./weight 50000000 >/dev/null 2>&1
ok $? "recorded"

"$CS" optimize -i w.data --algorithm=dense-chains -o calls >/dev/null 2>&1
ok $? "optimize by calls"
"$CS" optimize -i w.data --algorithm=dense-chains --weight=time -o time >/dev/null 2>&1
ok $? "optimize by self time"
grep -q '^# cache .*; heat: calls$' calls.lor && grep -q '^# cache .*; heat: self time$' time.lor
ok $? "the .lor says what made a function hot"
is "$(grep -x -e busy -e tiny calls.order | tr '\n' ' ')" "tiny busy " \
	"by calls, the function called a thousand times comes first"
is "$(grep -x -e busy -e tiny time.order | tr '\n' ' ')" "busy tiny " \
	"by self time, the long loop comes first"
"$CS" optimize -i w.data --weight=often -o bad >/dev/null 2>err.txt
[ $? -eq 2 ] && grep -q "weight is calls, time, samples or mixed, not 'often'" err.txt
ok $? "an unknown weight is a usage error"
done_testing
