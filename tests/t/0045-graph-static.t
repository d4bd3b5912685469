#!/bin/sh
# graph --static: the direct calls in the program's code that never ran
# are arcs with count 0 beside the ones that ran (text and --json), from
# functions that ran and from functions that never did; a call through a
# pointer is not guessed; without --static the graph holds only what ran.
# Error paths that end in a jump to another function (tail calls, in
# code that never ran) are arcs too, marked as tail calls; a jump through
# a pointer is not guessed either.
. "$(dirname "$0")/lib.sh"

# arcs G.JSON: "caller>callee:count" for the program's own functions
arcs() {
	jq -r '[.arcs[] | select(.caller != "<spontaneous>") | "\(.caller)>\(.callee):\(.count)"]
		| map(select(test("report_error|cleanup|shutdown_all|via_pointer|parse|never_called")))
		| sort | join(" ")' "$1"
}

plan 14
for kind in PG FENTRY CYG; do
	for opt in -O2; do
		eval flags=\$HOOK_FLAGS_$kind
		# shellcheck disable=SC2086
		build_prog error_paths e $opt $flags
		limited "$CS" record -o e.data -- ./e > /dev/null 2>&1
		"$CS" graph -i e.data --json > ran.json
		is "$(arcs ran.json)" "main>parse:10" "$kind $opt: without --static, only what ran"
		"$CS" graph -i e.data --static --json > st.json
		is "$(arcs st.json)" \
			"main>never_called:0 main>parse:10 never_called>parse:0 never_called>shutdown_all:0 parse>cleanup:0 parse>report_error:0" \
			"$kind $opt: --static adds the calls that never ran with count 0, none through the pointer"
		"$CS" graph -i e.data --static > st.txt
		is "$(grep -c '^ *0\.00 *0\.00 *0/0 *report_error$' st.txt)" 1 \
			"$kind $opt: the text lists them under their caller"
	done
done
# tail ARCS.JSON: "caller>callee:count[:tail]" for tail_errors' functions
tail_arcs() {
	jq -r '[.arcs[] | select(.caller | test("^(check|give_up|main)$"))
		| select(.callee | test("^(check|give_up|fail|retry|log_error|via_pointer)$"))
		| "\(.caller)>\(.callee):\(.count)\(if .tail_call then ":tail" else "" end)"]
		| sort | join(" ")' "$1"
}
for kind in PG FENTRY; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	build_prog tail_errors te -O2 $flags
	limited "$CS" record -o te.data -- ./te > /dev/null 2>&1
	"$CS" graph -i te.data --static --json > te.json
	is "$(tail_arcs te.json)" \
		"check>fail:0:tail check>log_error:0 check>retry:0:tail main>check:10 main>give_up:0" \
		"$kind -O2: the jumps of never-run code to other functions are tail-call arcs, none through the pointer"
	"$CS" graph -i te.data --static > te.txt
	is "$(grep -c '^ *0\.00 *0\.00 *0/0 *fail (tail call)$' te.txt)" 1 \
		"$kind -O2: the text marks them"
done
strip e
"$CS" graph -i e.data --static > /dev/null 2> err.txt
is "$?:$(wc -l < err.txt):$(grep -c 'no symbol table' err.txt)" "0:1:1" \
	"a stripped program: one line says why, the graph is still printed"
done_testing
