#!/bin/sh
# record --mode=count --time-by=samples: a sample in a stub of a PLT is
# the stub's time, named as perf names it.  In the program's PLT
# (lib_len@plt), which a call has just reached: the last call from the
# same place has returned by then, though its return slot holds the same
# address again, and must not take the sample (it took them all, and the
# stub was never named).  In a library's own PLT (strlen@plt in the
# library without hooks): the linker's call frame information makes the
# whole .plt one function, which named every stub's samples ".plt".
. "$(dirname "$0")/lib.sh"

plan 8
LIMIT=120
N=50000000
# tests/progs/plt_stubs.c, its library without hooks
cc -O2 -fPIC -shared -o libstubs.so "$PROGS/plt_stubs_lib.c" || exit 1
cc -O2 -o plain "$PROGS/plt_stubs.c" -L. -lstubs -Wl,-rpath,'$ORIGIN' || exit 1
cc -O2 -pg -o pg "$PROGS/plt_stubs.c" -L. -lstubs -Wl,-rpath,'$ORIGIN' || exit 1
# self_of DATA NAME: NAME's self time, in percent of the run's
self_of() {
	"$CS" report -i "$1" --json |
		jq --arg f "$2" '[.functions[] | select(.name == $f) | .self_pct] | add // 0'
}
at_least() { awk -v v="$1" -v min="$2" 'BEGIN { exit !(v >= min) }'; }

# the stubs' share by the samples of the plain build: some 8 % each
limited "$CS" record -q -o s.data -- ./plain $N > /dev/null
stub=$(self_of s.data lib_len@plt)
at_least "$stub" 3
ok $? "sampled, lib_len@plt has its time ($stub %)"

# stubs_named DATA HOW: the checks on a count-mode recording
stubs_named() {
	stub=$(self_of "$1" lib_len@plt)
	at_least "$stub" 3
	ok $? "$2: the program's stub has its samples, by its name ($stub %)"
	lib=$(self_of "$1" strlen@plt)
	at_least "$lib" 3
	ok $? "$2: so has the library's stub ($lib %)"
	is "$(self_of "$1" .plt)" 0 "$2: no sample is named by the whole .plt"
}

limited "$CS" record -q --patch --mode=count --time-by=samples -o c.data -- ./plain $N > c.out
is "$(cat c.out):$(calls_of c.data lib_len)" "$((2 * N)):$N" "patched: the program ran, each call counted"
stubs_named c.data patched
limited "$CS" record -q --mode=count --time-by=samples -o p.data -- ./pg $N > /dev/null
stubs_named p.data -pg
done_testing
