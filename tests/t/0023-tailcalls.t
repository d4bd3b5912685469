#!/bin/sh
# Tail calls under -pg and -pg -mfentry (gcc and clang, -O2 and -O3): the
# arc belongs to the function that jumped, which stays open until its
# callee returns and is not taken for a frame left by longjmp.  The
# oracle is callgrind on the same object linked without -pg (glibc's
# mcount resolves the hooks); callgrind follows jumps between functions.
# Library calls are left out: callgrind's arcs, the oracle, are the program's own.
. "$(dirname "$0")/lib.sh"

if ! command -v valgrind > /dev/null 2>&1; then
	echo "1..0 # skip valgrind is not installed"
	exit 0
fi

# unwound_of DATA: the program's functions the report tags as left by
# unwinding, with how many of their calls an exception left.
unwound_of() {
	"$CS" report -i "$1" --json |
		jq -r '[.functions[] | select(.unwound > 0 and (.object | test("/(tc|tt)$"))) |
			"\(.name)\(if .thrown > 0 then ":\(.thrown) thrown" else "" end)"] | sort | join(",")'
}

# calls_line DATA: "main=N ping=N pong=N top=N".
calls_line() {
	"$CS" report -i "$1" --json |
		jq -r '[.functions[] | select(.name | test("^(main|ping|pong|top)$")) | "\(.name)=\(.calls)"] | sort | join(" ")'
}

plan 31
for compiler in gcc clang; do
	for opt in -O2 -O3; do
		for kind in PG FENTRY; do
			eval flags=\$HOOK_FLAGS_$kind
			name="$compiler $opt $kind"
			if ! command -v $compiler > /dev/null 2>&1; then
				skip "$name: $compiler is not installed"
				skip "$name: $compiler is not installed"
				continue
			fi
			# shellcheck disable=SC2086
			$compiler -w -g $opt $flags -c -o tc.o "$PROGS/tailcall.c"
			$compiler -pg -o tc tc.o
			$compiler -o tc-nogmon tc.o
			LIMIT=120 limited valgrind --tool=callgrind --callgrind-out-file=cg.out \
				./tc-nogmon 100 100 > /dev/null 2>&1
			limited "$CS" record --no-libcall -o tc.data -- ./tc 100 100 > /dev/null 2>&1
			callgrind_arcs cg.out tc-nogmon > want.txt
			callscope_arcs tc.data > got.txt
			if diff want.txt got.txt > diff.txt && [ -s want.txt ]; then
				ok 0 "$name: every arc and its count agree with callgrind"
			else
				ok 1 "$name: every arc and its count agree with callgrind"
				sed 's/^/#   /' diff.txt
			fi
			is "$(unwound_of tc.data)" "jumper,thrower" \
				"$name: only the frames longjmp left are tagged as unwound"
		done
	done
done

# The other modes rebuild the same calls from their own records.
gcc -g -O2 -pg -o tc "$PROGS/tailcall.c"
limited "$CS" record --no-libcall -o tc.data -- ./tc 100 100 > /dev/null 2>&1
callscope_arcs tc.data > trace.txt
for mode in count flight; do
	limited "$CS" record --no-libcall --mode=$mode -o m.data -- ./tc 100 100 > /dev/null 2>&1
	callscope_arcs m.data > got.txt
	if diff trace.txt got.txt > diff.txt; then
		ok 0 "--mode=$mode: the same arcs and counts as a trace"
	else
		ok 1 "--mode=$mode: the same arcs and counts as a trace"
		sed 's/^/#   /' diff.txt
	fi
	is "$(unwound_of m.data)" "jumper,thrower" "--mode=$mode: the same frames tagged as left by longjmp"
done

# ping <-> pong 200 000 deep, past the 131 072 open calls the shadow stack
# holds: the loop of jumps is folded there, every call still counted.
# ping(n) makes n + 1 calls, ping first; main calls ping(200000 + i) for
# i = 0..9.
want="main=1 ping=1000030 pong=1000025 top=1"
limited "$CS" record --no-libcall -o deep.data -- ./tc 1 200000 > /dev/null 2>&1
is "$(calls_line deep.data)" "$want" "200 000 deep tail recursion: exact counts"
is "$("$CS" report -i deep.data --json | jq .lost_events)" 0 "200 000 deep tail recursion: nothing lost"
limited "$CS" record --no-libcall --mode=count -o deepc.data -- ./tc 1 200000 > /dev/null 2>&1
is "$(calls_line deepc.data)" "$want" "200 000 deep tail recursion, --mode=count: exact counts"

# C++: a throw through a tail call, and std::thread's _M_run, which jumps
# to the thread's function (through a register).
mine='^(main|catcher|jumper|thrower|after_catch|body|work) (catcher|jumper|thrower|after_catch|body|work) '
g++ -g -O2 -o tt-plain "$PROGS/tailcall_throw.cc" -lpthread
expected=$(./tt-plain)
for kind in PG FENTRY; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	g++ -g -O2 $flags -c -o tt.o "$PROGS/tailcall_throw.cc"
	g++ -pg -o tt tt.o -lpthread
	g++ -o tt-nogmon tt.o -lpthread
	LIMIT=120 limited valgrind --tool=callgrind --callgrind-out-file=cg.out ./tt-nogmon > /dev/null 2>&1
	out=$(limited "$CS" record --no-libcall -o tt.data -- ./tt 2> /dev/null)
	is "$?:$out" "0:$expected" "C++ $kind: the program runs as it does alone"
	callgrind_arcs cg.out tt-nogmon | grep -E "$mine" > want.txt
	callscope_arcs tt.data | grep -E "$mine" > got.txt
	if diff want.txt got.txt > diff.txt && [ -s want.txt ]; then
		ok 0 "C++ $kind: arcs through a throw and into threads agree with callgrind"
	else
		ok 1 "C++ $kind: arcs through a throw and into threads agree with callgrind"
		sed 's/^/#   /' diff.txt
	fi
	"$CS" graph -i tt.data --json > g.json
	"$CS" report -i tt.data --json > r.json
	is "$(jq -r '[.arcs[] | select(.callee == "body" and (.caller | test("_M_run"))) | .count] | add' g.json) $(jq '[.functions[] | select(.name == "body" or (.name | test("_M_run"))) | .unwound] | add' r.json)" \
		"2 0" "C++ $kind: each thread's _M_run calls body and neither is left by unwinding"
done
limited "$CS" record --mode=count -o ttc.data -- ./tt > /dev/null 2>&1
is "$(unwound_of ttc.data)" "jumper:20 thrown,thrower:20 thrown" \
	"C++ --mode=count: the frames the throw left are tagged as a trace tags them"
is "$(unwound_of tt.data)" "jumper:20 thrown,thrower:20 thrown" "C++ trace: the same"
done_testing
