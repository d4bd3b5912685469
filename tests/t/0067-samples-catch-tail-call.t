#!/bin/sh
# record --mode=count --time-by=samples, where returns are known from the
# stack pointer and not redirected: a function that catches an exception
# and then jumps to another (a tail call) runs as it does alone.  The
# catch once redirected every surviving frame through the trampoline, so
# the function jumped to came back through it with its frame already
# dropped, and the program aborted ("the shadow stack is corrupt").
# Under -finstrument-functions a library call's return is redirected, and
# `std::cout << std::endl` jumps from ostream's operator<< to std::endl
# with that slot: the same abort, until the jump kept the caller's frame.
. "$(dirname "$0")/lib.sh"

if ! command -v g++ > /dev/null 2>&1; then
	echo "1..0 # skip g++ is not installed"
	exit 0
fi

plan 8
g++ -O2 -g -o plain "$PROGS/catch_then_jump.cc"
expected=$(./plain)
if objdump -d plain | grep -A40 '<catch_then_jump>:' | grep -q 'jmp.*<finish>'; then
	tail_call=yes
else
	tail_call=no
fi
for kind in PG FENTRY CYG PATCH; do
	if [ "$kind" = PATCH ]; then
		prog=./plain
		set -- --patch
	else
		eval flags=\$HOOK_FLAGS_$kind
		# shellcheck disable=SC2086
		g++ -O2 -g $flags -o "cj_$kind" "$PROGS/catch_then_jump.cc"
		prog=./cj_$kind
		set --
	fi
	out=$(limited "$CS" record --mode=count --time-by=samples -o s.data "$@" -- "$prog" 2> err.txt)
	is "$?:$out" "0:$expected" "$kind: exits 0 with the output it has alone (tail call after the catch: $tail_call)"
	is "$(calls_of s.data catch_then_jump) $(calls_of s.data fail_odd) $(calls_of s.data finish)" "20 20 20" \
		"$kind: every call counted"
done
done_testing
