#!/bin/sh
# Record an instrumented build, lay out the release build: the names and
# sizes are the release binary's.  The instrumented copy is built with
# -fno-ipa-cp, so its scale() keeps its name while the release build's is
# scale.constprop.0; the profile's scale must land on that clone with the
# release size, not go stale.  The release build's step.cold, the cold
# path gcc split off step, is never called: it stays out of the hot order,
# listed under its own name.
. "$(dirname "$0")/lib.sh"

plan 7

build_prog clones plain -O2 -ffunction-sections -Wl,-Map=plain.map
build_prog clones pg -O2 -pg -fno-ipa-cp -ffunction-sections
size_of() {
	hex=$(nm -S "$1" | awk -v f="$2" '$4 == f { print $2 }')
	[ -n "$hex" ] && echo $((0x$hex))
}
if [ -z "$(size_of plain scale.constprop.0)" ] || [ -z "$(size_of plain step.cold)" ] ||
	[ -z "$(size_of pg scale)" ]; then
	for i in 1 2 3 4 5 6 7; do skip "this compiler names its clones otherwise"; done
	done_testing
	exit 0
fi

limited "$CS" record -o pg.data -- ./pg 20000 >/dev/null 2>&1
ok $? "recorded the instrumented build"
"$CS" optimize -i pg.data --binary plain --map plain.map -o out >out.txt 2>err.txt
ok $? "laid out the release build"

# A member line of the .lor: index, name, bytes, calls, section.
lor_size() { awk -v f="$1" '$2 == f && $1 ~ /^[0-9]+$/ { print $3 }' out.lor; }
is "$(lor_size scale.constprop.0)" "$(size_of plain scale.constprop.0)" \
	"the profile's scale is the release build's scale.constprop.0, with its size"
is "$(lor_size step)" "$(size_of plain step)" "step has the release build's size"
grep -qx 'scale.constprop.0' out.order && ! grep -qx scale out.order
ok $? "the order names the release build's clone"
! grep -q "not in the binary" err.txt
ok $? "no profile function went stale"
! grep -qx 'step.cold' out.order && grep -q '^ *step.cold ' out.lor
ok $? "step.cold stays out of the hot order, listed under its own name"
done_testing
