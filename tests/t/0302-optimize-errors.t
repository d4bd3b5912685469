#!/bin/sh
# What optimize says about bad input and stale profiles: one line, what is
# wrong and what to do, and a non-zero exit (2 for a wrong command line).
. "$(dirname "$0")/lib.sh"

plan 30
# A failed measurement keeps its scratch directory for its logs: keep it here.
TMPDIR=$WORK
export TMPDIR

cc -O2 -g -ffunction-sections -c "$PROGS/opt_main.c" -o opt_main.o
cc -O2 -g -c "$PROGS/opt_lib.c" -o opt_lib.o
cc -o prog opt_main.o opt_lib.o -Wl,-Map=prog.map
cc -O2 -g -pg -ffunction-sections -o prog-pg "$PROGS/opt_main.c" "$PROGS/opt_lib.c"
limited "$CS" record -o p.data -- ./prog-pg 100 >/dev/null 2>&1

# expect STATUS PATTERN NAME -- COMMAND...: the exit status, and one line on
# stderr matching PATTERN.
expect() {
	want=$1 pattern=$2 name=$3
	shift 4
	"$@" >out.txt 2>err.txt
	got=$?
	if [ "$got" -ne "$want" ]; then
		ok 1 "$name (exit $got, not $want)"
		sed 's/^/#   /' err.txt
		return
	fi
	grep -q -- "$pattern" err.txt
	ok $? "$name"
}

expect 1 "cannot open 'none.data'" "a missing recording" -- "$CS" optimize -i none.data
expect 2 "unknown algorithm 'best'" "an unknown algorithm" -- "$CS" optimize -i p.data --algorithm=best
expect 2 "wants a size such as 32K" "a bad cache size" -- "$CS" optimize -i p.data --cache-size=lots
expect 2 "wants a size such as 32K" "a zero cache size" -- "$CS" optimize -i p.data --cache-size=0
expect 2 "do not go together" "--map with --objects" -- "$CS" optimize -i p.data --map=prog.map --objects opt_main.o
expect 2 "wants the object files" "--objects without files" -- "$CS" optimize -i p.data --objects
expect 2 "unexpected argument 'extra'" "a stray argument" -- "$CS" optimize p.data extra
expect 1 "cannot read the binary 'nothere'" "a missing binary" -- "$CS" optimize -i p.data --binary=nothere
printf 'not a map\n' >junk.map
expect 1 "'junk.map' is not a linker map" "a file that is not a map" -- "$CS" optimize -i p.data --binary=prog --map=junk.map
expect 1 "cannot open the map 'none.map'" "a missing map" -- "$CS" optimize -i p.data --binary=prog --map=none.map

# A map of another link of the program: its addresses do not match.
cc -o prog2 opt_lib.o opt_main.o -Wl,-Map=prog2.map
expect 1 "does not describe 'prog'" "a map of another link" -- "$CS" optimize -i p.data --binary=prog --map=prog2.map
expect 1 "is neither an object file nor an archive" "a bad object" -- "$CS" optimize -i p.data --binary=prog --objects junk.map
expect 1 "is not a relocatable object" "an executable given as an object" -- "$CS" optimize -i p.data --binary=prog --objects prog
cp prog stripped && strip stripped
expect 1 "has no symbol table" "a stripped binary" -- "$CS" optimize -i p.data --binary=stripped

# A stale profile: the binary lost a function the profile has.
sed 's/leaf_b/leaf_c/g' "$PROGS/opt_main.c" >renamed.c
cc -O2 -g -o renamed renamed.c opt_lib.o
expect 0 "1 functions of the profile are not in the binary.*leaf_b (100 calls)" \
	"a stale profile names the missing function and its calls" -- \
	"$CS" optimize -i p.data --binary=renamed -o r
grep -q '^  not in the binary: 1 ' r.lor && grep -q '^    leaf_b .* 100 calls' r.lor
ok $? "the .lor lists it with its calls"
! grep -q leaf_b r.order
ok $? "and it is not in the order"

# A hot function larger than the cache.
expect 0 "'main' alone is larger than the cache .*only its block layout can" \
	"a function larger than the cache is named" -- \
	"$CS" optimize -i p.data --binary=prog --map=prog.map --cache-size=64 -o small
expect 0 "fixed group .text (opt_lib.o) is larger than the cache" \
	"a fixed group larger than the cache is named" -- \
	"$CS" optimize -i p.data --binary=prog --map=prog.map --cache-size=40 -o smaller

# --measure.
expect 2 "wants two binaries or more" "measure with one binary" -- "$CS" optimize --measure prog -- 1
expect 2 "go with --measure" "a measure option without --measure" -- "$CS" optimize -i p.data --cache=8K,2,32
expect 2 "do not go with it" "a layout option with --measure" -- "$CS" optimize --measure --algorithm=c3 prog prog -- 1
expect 2 "must be a whole power of two" "an impossible cache" -- "$CS" optimize --measure prog prog --cache=8K,3,32 -- 1
expect 2 "line size must be a power of two" "an impossible line" -- "$CS" optimize --measure prog prog --cache=8K,2,24 -- 1
expect 2 "--offsets needs --relink" "offsets without a way to relink" -- "$CS" optimize --measure prog prog --offsets=0,16 -- 1
expect 1 "cannot run 'nothere'" "a missing binary to measure" -- "$CS" optimize --measure prog nothere -- 1
if command -v valgrind >/dev/null 2>&1; then
	expect 1 "relink failed for 'prog' with 16 bytes of padding: no luck" "a failing relink command" -- \
		"$CS" optimize --measure prog prog --cache=8K,2,32 --offsets=0,16 --relink='echo no luck >&2; exit 3' -- 1
	expect 1 "made no binary" "a relink that writes nothing" -- \
		"$CS" optimize --measure prog prog --cache=8K,2,32 --offsets=0,16 --relink=true -- 1
	"$CS" optimize --measure prog prog --cache=8K,2,32 -- 5 >same.txt 2>same.err
	grep -q '^verdict: no clear difference between prog and prog' same.txt
	ok $? "a binary against itself: no difference"
	# A named cache is simulated, so the hardware event is not even tried.
	! grep -q 'hardware event' same.err && grep -q '^I1 misses simulated by cachegrind' same.txt
	ok $? "--cache simulates without trying the hardware event"
else
	for i in 1 2 3 4; do skip "valgrind is not installed"; done
fi
done_testing
