#!/bin/sh
# A thread's first hook opens the thread's files through libc, while the
# vector registers hold the function's arguments, ymm ones included; the
# ABI lets libc clear or fill every one of them (its AVX string functions
# leave with vzeroupper).  A preloaded open() (tests/inject/dirty_vectors.c),
# which the runtime calls there, fills ymm0-15 with ones: the program's
# output must stay what it is alone, for every hook kind that can start a
# thread (-pg, -pg -mfentry, a library call, a patched entry) and every mode.
. "$(dirname "$0")/lib.sh"

DIRTY="$BUILD/tests/libdirty_vectors.so"
cc -O2 -pthread -o plain "$PROGS/wide_vectors.c" -lmvec -lm || exit 1
expected=$(./plain 8)
if [ "$expected" = "no avx" ]; then
	echo "1..0 # SKIP the processor has no AVX"
	exit 0
fi
plan 11

# same NAME ARGS -- RECORD-ARGS...: the recorded program prints what it
# prints alone with ARGS
same() {
	name=$1
	shift
	args=
	while [ "$1" != -- ]; do
		args="$args $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	alone=$(./plain $args)
	# shellcheck disable=SC2086
	got=$(LD_PRELOAD=$DIRTY limited "$CS" record -o x.data "$@" $args 2> err.txt)
	rc=$?
	is "$rc $got" "0 $alone" "$name: the vector arguments come through the thread's first hook"
}

for kind in PG FENTRY; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	cc -O2 $flags -pthread -o "b-$kind" "$PROGS/wide_vectors.c" -lmvec -lm || exit 1
	for mode in trace count flight; do
		same "$kind $mode" 8 -- --mode=$mode -- "./b-$kind"
	done
	same "$kind count --time-by=samples" 8 -- --mode=count --time-by=samples -- "./b-$kind"
done
# libmvec's cos as each thread's first call, through the library-call hook
if [ "$(./plain 1 lib)" = "no avx2" ]; then
	skip "library call, trace: the processor has no AVX2 for libmvec"
	skip "library call, count: the processor has no AVX2 for libmvec"
else
	same "library call, trace" 8 lib -- --mode=trace -- ./b-PG
	same "library call, count" 8 lib -- --mode=count -- ./b-PG
fi
# the entry of the plain build patched, blend() alone
same "--patch" 8 -- --patch=blend -- ./plain
done_testing
