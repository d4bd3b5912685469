#!/bin/sh
# Link order end to end: a generated program of a few hundred functions
# whose hot code (four phases of six functions) is spread among cold code
# is recorded, laid out by 'callscope optimize', relinked with the GNU ld
# script it wrote, and measured by 'optimize --measure' under cachegrind:
# the hot code must end up together and the I1 misses must drop.
. "$(dirname "$0")/lib.sh"

if ! command -v valgrind >/dev/null 2>&1; then
	plan 1
	skip "valgrind is not installed (scripts/deps/optimize.txt)"
	done_testing
fi
plan 26

sh "$PROGS/opt_gen.sh" 240 >prog.c
cc -O2 -g -ffunction-sections -c prog.c -o prog.o
cc -o prog-default prog.o -Wl,-Map=prog.map
cc -O2 -g -pg -ffunction-sections -o prog-pg prog.c
limited "$CS" record -o p.data -- ./prog-pg 40 >/dev/null 2>&1
ok $? "the instrumented build is recorded"

"$CS" optimize -i p.data --binary prog-default --map prog.map -o app >opt.out 2>opt.err
ok $? "optimize succeeds"
for f in app.lor app.order app.cg app.gold-order app.ld; do
	[ -s $f ]
	ok $? "wrote $f"
done

# The order holds the 24 hot functions and the 4 phases, and no cold one.
is "$(grep -c -E '^(hot|phase)_' app.order)" 28 "every hot function is in the order"
is "$(grep -c '^cold_' app.order)" 0 "no cold function is in the order"
# Each phase and its six callees are neighbours: seven lines in a row.
spread=0
for p in 0 1 2 3; do
	lines=$(grep -n -E "^(hot_${p}_|phase_${p}\$)" app.order | cut -d: -f1 | sort -n)
	first=$(echo "$lines" | head -1)
	last=$(echo "$lines" | tail -1)
	[ $((last - first)) -eq 6 ] || spread=1
done
ok $spread "each phase's functions are placed next to one another"
# The cache-directed sort keeps each phase together too, within the cache,
# and so does its variant that then joins the chains left to their callers.
for alg in cache-sort cache-sort-callers; do
	"$CS" optimize -i p.data --binary prog-default --map prog.map --algorithm=$alg \
		--cache-size=8K -o cs >/dev/null 2>&1
	ok $? "optimize --algorithm=$alg succeeds"
	spread=0
	for p in 0 1 2 3; do
		lines=$(grep -n -E "^(hot_${p}_|phase_${p}\$)" cs.order | cut -d: -f1 | sort -n)
		[ $(($(echo "$lines" | tail -1) - $(echo "$lines" | head -1))) -eq 6 ] || spread=1
	done
	[ "$(grep -c -E '^(hot|phase)_' cs.order)" -eq 28 ] && ! grep -q '^cold_' cs.order
	ok $((spread + $?)) "$alg orders every hot function, each phase's next to one another"
done
grep -q 'not called: 2[4-9][0-9] ' app.lor
ok $? "the .lor lists the cold functions as not called"
grep -q -- '-Wl,-T,app.ld' opt.out && grep -q -- '--symbol-ordering-file=app.order' opt.out
ok $? "the linker flags are printed"

# Relink with the GNU ld script: the hot code is now within a few KiB.
cc -o prog-new prog.o -Wl,-T,app.ld
ok $? "links with the GNU ld script"
# span BINARY: bytes from the first hot function to the last.
span() {
	nm -n "$1" | grep -E ' [tT] (hot|phase)_' | sed -n '1s/ .*//p;$s/ .*//p' | {
		read -r lo
		read -r hi
		echo $((0x$hi - 0x$lo))
	}
}
old_span=$(span prog-default)
new_span=$(span prog-new)
[ "$new_span" -lt 8192 ] && [ "$old_span" -gt 65536 ]
ok $? "hot code spans $new_span bytes, against $old_span"
is "$(./prog-new 3)" "$(./prog-default 3)" "the relinked program computes the same"

cat >relink.sh <<'SH'
#!/bin/sh
# Relinks the layout $CALLSCOPE_BINARY names with $CALLSCOPE_PAD bytes of
# padding in front of the code.
case $CALLSCOPE_BINARY in
*prog-new) script=-Wl,-T,app.ld ;;
*) script= ;;
esac
exec cc -o "$CALLSCOPE_OUT" "$CALLSCOPE_PAD_OBJECT" prog.o $script
SH
chmod +x relink.sh
LIMIT=120 limited "$CS" optimize --measure prog-default prog-new --relink=./relink.sh \
	--cache=8K,2,32 --json -- 300 >m.json 2>m.err
ok $? "measure runs"
old_ir=$(jq '.binaries[0].instructions' m.json)
new_ir=$(jq '.binaries[1].instructions' m.json)
ok "$(jq -n "($new_ir - $old_ir | fabs) > $old_ir / 1000 | if . then 1 else 0 end")" \
	"both did the same work ($old_ir and $new_ir instructions)"
old=$(jq '.binaries[0].caches[0].mean' m.json)
new=$(jq '.binaries[1].caches[0].mean' m.json)
ok "$(jq -n "if $new < $old * 0.8 then 0 else 1 end")" \
	"I1 8K/2/32 misses drop: mean $new against $old over 4 offsets"
is "$(jq -c '[.binaries[].moved]' m.json)" "[[0,1040,2080,3120],[0,1040,2080,3120]]" \
	"the padding moved the hot code of both by the offsets asked"
ok "$(jq 'if .binaries[1].pages90 <= .binaries[0].pages90 then 0 else 1 end' m.json)" \
	"the hot code needs no more pages ($(jq -c '[.binaries[].pages90]' m.json))"

# The table and the verdict, at one offset.  On a 64 KiB cache both
# layouts' hot code fits and the misses differ by a few percent: at one
# offset that is no evidence either way, and the verdict must say so.
LIMIT=60 limited "$CS" optimize --measure prog-default prog-new --cache=8K,2,32 \
	--cache=64K,16,64 -- 300 >m.txt 2>m.err
grep -q '^verdict: prog-new is better than prog-default: [0-9]*% fewer I1 8K/2/32 misses, ' m.txt
ok $? "the verdict says the new order is better"
grep -q ' I1 64K/16/64 misses (within what one code offset can swing)' m.txt
ok $? "a small difference at one offset is not counted"
done_testing
