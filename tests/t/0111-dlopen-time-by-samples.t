#!/bin/sh
# A dlopen's return hooks the library calls of what it loaded, in every
# mode: also under --time-by=samples, where -pg returns are not redirected
# (before, the plugin's calls of strlen went uncounted there), and while
# the loaded object's constructor makes calls (before, a
# -finstrument-functions program aborted: the dlopen's frame was taken
# for returned, its slot leading to the runtime); and when dlopen is
# reached by a tail call, whose slot the caller's frame owns.
. "$(dirname "$0")/lib.sh"

plan 24
for kind in PG FENTRY CYG; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	cc -g -O2 -fno-builtin $flags -o shapes "$PROGS/libcall_shapes.c" -lm -ldl -lpthread
	# shellcheck disable=SC2086
	cc -g -O2 -fno-builtin $flags -fPIC -shared -o libcall_plugin.so "$PROGS/libcall_plugin.c"
	# shellcheck disable=SC2086
	cc -g -O2 $flags -o tail "$PROGS/dlopen_tail.c" -ldl
	for mode in "count --time-by=samples" trace; do
		# shellcheck disable=SC2086
		limited "$CS" record --mode=$mode -o dl.data -- ./shapes dlopen > /dev/null 2> err.txt
		is "$?" 0 "$kind $mode: the program ends normally"
		"$CS" graph -i dl.data --json > g.json
		is "$(jq -r '[.arcs[] | select(.callee=="strlen" or .callee=="plugin_setup") | "\(.caller)>\(.callee)=\(.count)"] | sort | join(",")' g.json)" \
			"main>strlen=100,plugin_init>plugin_setup=1,plugin_work>strlen=8" \
			"$kind $mode: the plugin's library calls and its constructor's call"
		ok "$(grep -c 'trampoline' err.txt)" "$kind $mode: no word of a corrupt shadow stack"
		# shellcheck disable=SC2086
		limited "$CS" record --mode=$mode -o tail.data -- ./tail > /dev/null 2>&1
		is "$(calls_of tail.data strlen)" 8 "$kind $mode: a dlopen reached by a tail call hooks the plugin too"
	done
done
done_testing
