#!/bin/sh
# record --mode=count --time-by=samples keeps a path's calls beside the
# shadow stack (the call memo of the thread's file) and writes them into
# the path's node later: the counts stay exactly a trace's, through
# longjmp, fork and more call paths than the memo holds, and however the run
# ends -- main returning, SIGKILL with calls open, a thread still running
# at exit (sealing adds what the memo held).
. "$(dirname "$0")/lib.sh"

plan 20
# counted_end.c: per working thread, mid N, leaf_a N + 25010, leaf_b N + (N + 2) / 3, deep 25010
n=3000
expect() {
	k=$1
	echo "deep $((25010 * k)) leaf_a $(((n + 25010) * k)) leaf_b $(((n + (n + 2) / 3) * k)) mid $((n * k))"
}
counts() {
	"$CS" report -i "$1" --json | jq -r '[.functions[] | select(.name | test("^(leaf_a|leaf_b|mid|deep)$"))
		| [.name, .calls]] | sort | flatten | join(" ")'
}
for kind in PG FENTRY CYG; do
	eval flags=\$HOOK_FLAGS_$kind
	# (not cycle.c: its tail calls show as calls by the caller here, as
	# docs/record.md says, where a trace keeps the jumping function open)
	for prog in basic longjmp fork; do
		# shellcheck disable=SC2086
		build_prog $prog p -O2 $flags
		limited "$CS" record -o t.data -- ./p >/dev/null 2>&1
		limited "$CS" record --mode=count --time-by=samples -o c.data -- ./p >/dev/null 2>&1
		call_paths t.data > t.txt
		call_paths c.data > c.txt
		cmp -s t.txt c.txt
		ok $? "$kind $prog: the trace's call paths and counts ($(wc -l < c.txt) paths)"
	done
	# shellcheck disable=SC2086
	build_prog counted_end ce -O2 $flags
	limited "$CS" record --mode=count --time-by=samples -o r.data -- ./ce $n return >/dev/null 2>&1
	is "$(counts r.data)" "$(expect 1)" "$kind: main returns: every call counted"
	limited "$CS" record --mode=count --time-by=samples -o k.data -- ./ce $n kill >/dev/null 2>&1
	is "$(counts k.data)" "$(expect 1)" "$kind: SIGKILL with calls open: every call counted"
	limited "$CS" record --mode=count --time-by=samples -o x.data -- ./ce $n thread >/dev/null 2>&1
	is "$(counts x.data)" "$(expect 2)" "$kind: a thread still running at exit: every call of both counted"
done
# a file size limit leaves the memo no room past the nodes: calls go to
# the nodes themselves
build_prog counted_end ce -O2 -pg
(ulimit -f 4096 && limited "$CS" record --mode=count --time-by=samples -o f.data -- ./ce $n kill) \
	>/dev/null 2>&1
is "$(counts f.data)" "$(expect 1)" "under a file size limit, with no room for the memo: every call counted"
build_prog tree_deep deep -O2 -pg
limited "$CS" record --mode=count=64 --time-by=samples -o d.data -- ./deep 300 >/dev/null 2>&1
limited "$CS" record -o dt.data -- ./deep 300 >/dev/null 2>&1
is "$("$CS" report -i d.data --json | jq '[.functions[].calls] | add')" \
	"$("$CS" report -i dt.data --json | jq '[.functions[].calls] | add')" \
	"paths past 64 nodes: no call is lost to <truncated>"
done_testing
