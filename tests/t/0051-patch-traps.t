#!/bin/sh
# record --patch where no 5-byte jump fits: -Os code packs tiny functions
# with no padding after them and puts loop heads in the first bytes.  Those
# entries take a 2-byte jump to a 5-byte one in an island (padding, or the
# dead bytes of a neighbour's window), or else an int3 whose SIGTRAP the
# runtime turns into the jump.  The shapes corpus built -Os by gcc and
# clang: output unchanged, every count equal to the -pg build's.  Traps beside a program's own SIGTRAP handler,
# in a thread that blocked every signal and in a handler whose mask holds
# them all: all counted, the program's own traps still its own.  And what
# the runtime refuses at start-up is in the recording, listed by 'info'
# with the planner's reasons.
. "$(dirname "$0")/lib.sh"

plan 12

# the corpus' functions -pg hooks (the asm_* shapes it cannot), with counts
counts() {
	"$CS" report -i "$1" --json |
		jq -r '.functions[] | select(.name | test("^(_init|_fini|_start|frame_dummy|register_tm_clones|deregister_tm_clones|__do_global_dtors_aux)$|[.]cold") | not) | "\(.name)=\(.calls)"' |
		sort
}

for c in gcc clang; do
	if ! command -v $c > /dev/null; then
		skip "$c not installed"
		skip "$c not installed"
		continue
	fi
	$c -Os -g -w -o "os-$c" "$PROGS/patch_corpus.c"
	$c -Os -g -w -pg -o "os-$c-pg" "$PROGS/patch_corpus.c"
	is "$(limited "$CS" record --patch -o "os-$c.data" -- "./os-$c" 3 2> "os-$c.err"; echo "rc=$?")" \
		"$(./"os-$c" 3; echo "rc=$?")" "$c -Os: output and exit status unchanged"
	limited "$CS" record -o "os-$c-pg.data" -- "./os-$c-pg" 3 > /dev/null 2>&1
	counts "os-$c-pg.data" > want.txt
	counts "os-$c.data" | grep -v '^asm_' > got.txt
	trapped=$("$CS" info --json "os-$c.data" | jq '.patch.trapped')
	short=$("$BUILD/tests/plan_check" "./os-$c" | awk '$1 == "site" && $5 == "jmp8"' | wc -l)
	[ "$trapped" -ge 16 ] && [ "$short" -ge 16 ] && cmp -s want.txt got.txt
	ok $? "$c -Os: $short short jumps, $trapped traps, every count equals the -pg build's"
	diff want.txt got.txt | head -5 | sed 's/^/#   /'
done

cc -O2 -g -o traps "$PROGS/patch_traps.c" -lpthread
is "$(limited "$CS" record --patch -o traps.data -- ./traps 10 2> traps.err; echo "rc=$?")" \
	"$(./traps 10; echo "rc=$?")" "traps: output unchanged, the program's own SIGTRAPs its own"
is "$(calls_of traps.data trap_one) $(calls_of traps.data trap_two) $(calls_of traps.data trap_loop)" \
	"120 110 120" "traps: counted in a thread blocking every signal and in a handler masking them"
is "$("$CS" info --json traps.data | jq -r '.patch.objects[0].trapped | map(.name) | sort | join(",")')/$("$BUILD/tests/plan_check" ./traps | awk '$1 == "site" && $5 == "jmp8"' | wc -l)" \
	"trap_one/2" "traps: info names the trapped; the two others take short jumps"
# no handler of its own: its int3 ends it as it would unpatched
limited "$CS" record --patch -o bare.data -- ./traps 0 > /dev/null 2>&1
rc=$?
./traps 0 > /dev/null 2>&1
is "$rc/$(calls_of bare.data trap_one)" "$?/1" "traps: the program's own int3 without a handler ends it as before"

# The runtime refuses an entry whose code changed since the plan (the
# library rewrites it as it loads): in the recording, not just on stderr.
# The library comes by dlopen, patched as dlopen returns (the loader not
# followed: followed, it is patched before its constructor rewrites the
# code), so its short jump and trap are written while threads may run.
cc -O2 -g -shared -fPIC -o libpatch_selfmod.so "$PROGS/patch_selfmod.c"
cc -O2 -g -o selfmod "$PROGS/patch_selfmod_main.c" -ldl
is "$(LD_LIBRARY_PATH=$WORK CALLSCOPE_NO_LOADER_HOOK=1 limited "$CS" record --patch=selfmod,libpatch_selfmod -o sm.data -- ./selfmod 2> sm.err)" \
	"$(LD_LIBRARY_PATH=$WORK ./selfmod)" "changed code: output unchanged"
"$CS" info sm.data > info.txt
"$CS" info --verbose sm.data > verbose.txt
grep -q '^  1 skipped: refused at run time: the loaded code differs from the file' info.txt &&
	! grep -q selfmod_answer info.txt &&
	grep -A1 'refused at run time: the loaded code differs' verbose.txt | grep -q '^    selfmod_answer$'
ok $? "changed code: info counts the refusal under its reason, --verbose names it"
is "$(calls_of sm.data selfmod_plain)/$(calls_of sm.data selfmod_loop)/$(calls_of sm.data selfmod_tiny)/$(calls_of sm.data selfmod_answer)" \
	"5/5/5/0" "changed code: the rest of the library traced (a short jump, a trap), the changed entry left alone"

# Code that may not be made writable: every planned entry refused
cc -O2 -o deny "$PROGS/deny_code_writes.c"
limited ./deny "$CS" record --patch -o deny.data -- ./traps 1 > /dev/null 2>&1
"$CS" info --json deny.data > deny.json
is "$(jq -r '[.patch.patched, (.patch.objects[0].skipped | map(select(.reason | test("could not be made writable"))) | length), .patch.trapped] | join(" ")' deny.json)" \
	"0 13 0" "code not writable: every entry refused at run time, in the recording"
done_testing
