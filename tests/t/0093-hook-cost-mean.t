#!/bin/sh
# A recording of several processes subtracts each process's own figures
# from its calls, and the report's header gives what was subtracted per
# call over all of them: a library call's figure and a compiler hook's
# apart, each the mean over its calls, so that the two figures times
# their calls make the total the header says.  Two processes make the
# same library calls; the first CALIBRATION (the child's, which exits
# first) is forged to a library figure ten times the other's, so that
# neither process's own figure can pass for the mean.
. "$(dirname "$0")/lib.sh"

plan 4
LIMIT=120
N=40000
cat > tiny.c <<'C'
int tiny_step(int x) { return x * 3 + 1; }
C
cat > forks.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
int tiny_step(int x);
__attribute__((noinline)) int own_step(int x) { return x * 3 + 1; }
__attribute__((noinline)) int loops(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += tiny_step(i) + own_step(i);
	return s;
}
int main(int argc, char **argv)
{
	int n = atoi(argv[1]);
	pid_t child = fork();
	if (child == 0)
		exit(loops(n) == 42);
	waitpid(child, NULL, 0);
	printf("%d\n", loops(n));
	return 0;
}
C
cc -O2 -fPIC -shared -o libtiny.so tiny.c || exit 1
cc -O2 -pg -o forks forks.c -L. -ltiny -Wl,-rpath,'$ORIGIN' || exit 1
limited "$CS" record --outside-freq=0 -o run.data -- ./forks $N > /dev/null 2>&1
"$CS" info -i run.data --json > before.json
is "$(jq '[.processes[] | select(.library_calls >= '$N')] | length' before.json)" 2 \
	"both processes counted their library calls apart"
# the child's library figure, at start (offset 88) and at exit (96): ten
# times the larger of the two processes' in clock units x 256, inside
# the callee and out alike
unit_q=$(jq '[.processes[].library_hook_ns_subtracted] | max' before.json |
	awk -v ns_per_unit="$(jq '.ns_per_clock_unit' before.json)" \
		'{ q = int($1 * 10 / 2 * 256 / (ns_per_unit > 0 ? ns_per_unit : 1)); print q }')
pair=$(echo "$unit_q" | awk '{ printf "%.0f", $1 + $1 * 4294967296 }')
perl "$ROOT/tests/t/session_forge.pl" --section=12 run.data 88=$pair 96=$pair
"$CS" info -i run.data --json > info.json
# each process's figure weighed by its library calls, and the others
mean=$(jq '[.processes[] | {n: .library_calls, ns: .library_hook_ns_subtracted}]
	| (map(.n * .ns) | add) / (map(.n) | add)' info.json)
spread=$(jq '[.processes[].library_hook_ns_subtracted] | max / min' info.json)
ok "$(jq -n "$spread > 5" | grep -q true && echo 0 || echo 1)" \
	"the forged process's library figure differs from the other's ($spread times)"
"$CS" report -i run.data --json > report.json
got=$(jq '.overhead_ns_per_library_call' report.json)
is "$(jq -n --argjson got "$got" --argjson want "$mean" '($got - $want) | fabs <= $want * 0.02')" \
	true "the header's library figure is the mean over both processes' calls ($got ns, $mean ns)"
# the two figures times their calls are the total
calls=$(jq '.calls' report.json)
lib_calls=$(jq '[.processes[].library_calls] | add' info.json)
hook=$("$CS" report -i run.data | sed -n 's/.*subtracted: \([0-9.]*\) ns per call (.*/\1/p')
total=$(jq '.overhead_ns' report.json)
is "$(jq -n --argjson h "$hook" --argjson l "$got" --argjson c "$calls" --argjson lc "$lib_calls" \
	--argjson t "$total" '(($c - $lc) * $h + $lc * $l - $t) | fabs <= $t * 0.03')" true \
	"the two figures times their calls make the total ($total ns)"
done_testing
