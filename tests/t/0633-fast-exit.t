#!/bin/sh
# A process that ends by _exit() or _Exit() (every shell, many forked
# children) runs no atexit handler, where the runtime writes the
# process's end: it was shown as "did not exit normally", its open calls
# left to the reader.  The runtime stands in for both: the process exits
# normally, its calls open at the end close there.  The _exit() of a vfork
# child whose exec failed is the child's: the parent, whose state it
# borrows, goes on recording and exits normally.
. "$(dirname "$0")/lib.sh"

plan 11
# shellcheck disable=SC2086
build_prog fast_exit app -O2 $HOOK_FLAGS_PG

for how in _exit _Exit; do
	limited "$CS" record -o $how.data -- ./app $how > out.txt 2> err.txt
	is "$?:$(cat out.txt)" "0:working" "$how: the program runs unharmed"
	"$CS" info -i $how.data --json > i.json
	is "$(jq -r '[.processes[] | "\(.ended_by):\(.exited_normally)"] | join(" ")' i.json)" \
		"exit:true" "$how: the process exited normally"
	"$CS" report -i $how.data --json > r.json
	is "$(jq -r '[.functions[] | select(.name == "work" or .name == "leave") | "\(.name):\(.calls)"]
		| sort | join(" ")' r.json)" "leave:1 work:1" "$how: work and leave called once each"
	# work's time is its spin's, closed at the end (not left at zero)
	jq -e '[.functions[] | select(.name == "work") | .total_ns] | add > 1000000' r.json > /dev/null
	ok $? "$how: work's time runs to the end ($(jq '[.functions[] | select(.name == "work") | .total_ns] | add' r.json) ns)"
done

limited "$CS" record -o v.data -- ./app vfork > out.txt 2> err.txt
is "$?:$(cat out.txt)" "0:child 127" "vfork: the program runs unharmed"
"$CS" info -i v.data --json > i.json
is "$(jq -r '[.processes[] | "\(.ended_by):\(.exited_normally)"] | join(" ")' i.json)" \
	"exit:true" "vfork: the child's _exit did not end the parent's recording"
"$CS" report -i v.data --json > r.json
is "$(jq -r '[.functions[] | select(.name == "after_vfork") | .calls] | add' r.json)" 1 \
	"vfork: the parent's calls after it are recorded"
done_testing
