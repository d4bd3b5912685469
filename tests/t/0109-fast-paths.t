#!/bin/sh
# The hooks' fast paths, one compiled for each kind of recording (trace
# and flight, count, count with --call-stats), take tail calls, their
# returns and the usual calls themselves; with --clock=mono no fast path
# runs and the full paths do all of it.  Both must give the same calls,
# arcs and frames left by longjmp, under mcount and __fentry__.
. "$(dirname "$0")/lib.sh"

# summary DATA: every arc with its count, each function's calls, and the
# functions tagged as left by unwinding.
summary() {
	callscope_arcs "$1"
	"$CS" report -i "$1" --json |
		jq -r '.functions[] | select(.object | test("/tc$")) |
			"\(.name) calls=\(.calls) unwound=\(.unwound)"' | sort
}

plan 14
for kind in PG FENTRY; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	gcc -w -g -O2 $flags -o tc "$PROGS/tailcall.c"
	for mode in trace flight count count-stats; do
		case $mode in
		trace) opts= ;;
		count-stats) opts="--mode=count --call-stats" ;;
		*) opts="--mode=$mode" ;;
		esac
		name="$kind $mode"
		# shellcheck disable=SC2086
		if ! limited "$CS" record --no-libcall --clock=tsc $opts -o fast.data -- \
			./tc 100 100 > /dev/null 2> err.txt; then
			skip "$name: no TSC clock here ($(head -1 err.txt))"
			[ "$mode" = flight ] || skip "$name: no TSC clock here"
			continue
		fi
		# shellcheck disable=SC2086
		limited "$CS" record --no-libcall --clock=mono $opts -o full.data -- \
			./tc 100 100 > /dev/null 2>&1
		summary fast.data > fast.txt
		summary full.data > full.txt
		if diff full.txt fast.txt > diff.txt && grep -q "jumper calls=[1-9]" fast.txt; then
			ok 0 "$name: the fast paths give the full paths' calls, arcs and unwound frames"
		else
			ok 1 "$name: the fast paths give the full paths' calls, arcs and unwound frames"
			sed 's/^/#   /' diff.txt
		fi
		# ping <-> pong 200 000 deep: the fast paths take the chain of
		# tail calls up to the shadow stack's last slot, where the full
		# path folds it (as in 0023): every call still counted (but for
		# the flight recorder, whose ring keeps the newest events only)
		[ "$mode" = flight ] && continue
		# shellcheck disable=SC2086
		limited "$CS" record --no-libcall --clock=tsc $opts -o deep.data -- \
			./tc 1 200000 > /dev/null 2>&1
		is "$("$CS" report -i deep.data --json |
			jq -r '[.functions[] | select(.name | test("^(main|ping|pong|top)$")) |
				"\(.name)=\(.calls)"] | sort | join(" ")')" \
			"main=1 ping=1000030 pong=1000025 top=1" \
			"$name: 200 000 deep tail recursion, folded past the fast paths: exact counts"
	done
done
done_testing 2>/dev/null || true
