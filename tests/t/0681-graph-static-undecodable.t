#!/bin/sh
# graph --static reads a function past an instruction its disassembler
# does not know (one newer than it, VEX-encoded, stepped over by its
# length) and past bytes no decoder reads (decoding again a byte on):
# the call that follows them is an arc with count 0, as the call before
# such bytes always was.
. "$(dirname "$0")/lib.sh"

plan 3
build_prog static_undecodable su -O2 $HOOK_FLAGS_PG
objdump -d su | grep -q '(bad)'
ok $? "the program holds bytes objdump cannot decode either"
limited "$CS" record -o su.data -- ./su > /dev/null 2>&1
"$CS" graph -i su.data --static --json > st.json
is "$(jq -r '[.arcs[] | select(.caller == "rare") | "\(.callee):\(.count)"] | join(" ")' st.json)" \
	"never_called:0" "the call after them is an arc that never ran"
is "$(jq -r '[.arcs[] | select(.caller == "main") | "\(.callee):\(.count)"] | join(" ")' st.json)" \
	"rare:1" "the call that ran keeps its count"
