#!/bin/sh
# The hooks' cost the header gives per call is the one taken off the
# calls: the total over the calls, each process's calls at its own figure,
# so that per call times calls is the total; and a forked child's own
# profile (report --thread) says where its figure came from, not where
# its parent's did.
. "$(dirname "$0")/lib.sh"

plan 3
LIMIT=60
cat > forks.c <<'C'
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
static volatile long sink;
__attribute__((noinline)) void leaf(long i) { sink += i; }
__attribute__((noinline)) void many(long n) { for (long i = 0; i < n; i++) leaf(i); }
int main(int argc, char **argv)
{
	pid_t child = fork();
	if (child == 0) {
		many(20);	/* too short for a sample in its hooks */
		_exit(0);
	}
	waitpid(child, NULL, 0);
	many(argc > 1 ? atol(argv[1]) : 3000000);
	return 0;
}
C
cc -O2 -pg -o forks forks.c || exit 1
limited "$CS" record --outside-freq=997 -o f.data -- ./forks > /dev/null 2>&1
"$CS" report -i f.data --json > r.json
is "$(jq '(.overhead_ns_per_call * .calls - .overhead_ns) as $d | ($d * $d) < (.overhead_ns * .overhead_ns / 1e6)' r.json)" true \
	"the cost per call times the calls is the cost in all"
"$CS" report -i f.data --thread > t.txt
# the lines of each thread's header that say where the figure came from
parent=$("$CS" info -i f.data --json | jq '.processes[0].pid')
awk -v p="$parent" '/^## thread / { t = ($NF == p) ? "parent" : "child" }
	/hook overhead subtracted/ { print t ": " ($0 ~ /measured in place/ ? "in place" : "not in place") }' t.txt > where.txt
is "$(cat where.txt)" "parent: in place
child: not in place" "report --thread: the child's figure is not said to be the parent's in-place one"
"$CS" info -i f.data > i.txt
grep -q 'hooks in place' i.txt
ok $? "info has the parent's in-place figure"
