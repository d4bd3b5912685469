#!/bin/sh
# The runtime's side of patched function entries, from plans written by
# hand (tests/progs/patch_plan_write.c): the jumps, trampolines and exits
# of code built without hooks give the program's output unchanged and the
# call counts of the same source built with -pg, through tail calls, a
# loop back to the entry, longjmp, C++ exceptions, threads and
# swapcontext.  A damaged plan, or one made from another binary, leaves
# the program running untraced with one line saying why.
. "$(dirname "$0")/lib.sh"

plan 20
cc -O2 -I "$ROOT/common" -o ppw "$PROGS/patch_plan_write.c" || exit 1

# patched_run DIR PROG ARGS...: runs PROG with the runtime and the plan
# DIR/patch.plan, as record does with --patch, its stderr in DIR.err.
patched_run() {
	dir=$1
	shift
	limited env CALLSCOPE_LIBCALL='*' CALLSCOPE_CONTRACT="v=1;patch=1;dir=$WORK/$dir" \
		LD_PRELOAD="$BUILD/libcallscope.so" "$@" 2> "$dir.err"
}

counts() {
	"$CS" report -i "$1" --json | jq -r '.functions[] | "\(.name)=\(.calls)"' | sort
}

# Hand-written shapes: a plain window, a RIP-relative load, a loop whose
# head is the entry (called, and tail-called), a tail jump and a call as
# the window's last insn.
cc -O2 -o shapes "$PROGS/patch_shapes.c" "$PROGS/patch_shapes.S"
sym() { nm shapes | awk -v s="$1" '$3 == s { print "0x" $1 }'; }
plain=$(sym shape_plain) riprel=$(sym shape_riprel) loop0=$(sym shape_loop0)
tail=$(sym shape_tail) calls=$(sym shape_calls) counter=$(sym shape_counter)
tailloop=$(sym shape_tailloop)
mkdir s
./ppw s/patch.plan "$WORK/shapes" "$plain,6,$((plain + 6))" \
	"$riprel,6,$((riprel + 6)),2/6/$counter" "$loop0,7,$((loop0 + 7)),2/7/$counter" \
	"$tail,5,0,1/5/$plain" "$tailloop,5,0,1/5/$loop0" "$calls,8,$((calls + 8)),4/8/$plain"
is "$(patched_run s ./shapes)" "$(./shapes)" "shapes: output unchanged"
is "$(cat s.err)" "" "shapes: every site patched, nothing said"
is "$(counts s | grep shape_ | tr '\n' ' ')" \
	"shape_calls=50 shape_loop0=50 shape_plain=1150 shape_riprel=200 shape_tail=100 shape_tailloop=20 " \
	"shapes: exact counts (the loop at the entry is no call, entered by a call or a tail call)"
"$CS" graph -i s --json > g.json
is "$(jq -r '[.arcs[] | select(.callee=="shape_plain") | "\(.caller)=\(.count)"] | sort | join(",")' g.json)" \
	"<spontaneous>=1000,shape_calls=50,shape_tail=100" \
	"shapes: the tail call and the relocated call are arcs"

# same_counts NAME COMPILER SOURCE [status-only]: the -O0 build patched against -pg's
same_counts() {
	name=$1
	"$2" -O0 -g -o "$name" "$3" -lpthread
	"$2" -O0 -g -pg -o "$name-pg" "$3" -lpthread
	mkdir "$name.d"
	./ppw "$name.d/patch.plan" "$WORK/$name" --frame-pointer 2> /dev/null
	# threads.c's sum races (unlocked +=), so only its status is compared
	keep=cat
	[ "${4:-}" = status-only ] && keep="tail -1"
	is "$( (patched_run "$name.d" "./$name"; echo "rc=$?") | $keep)" "$( ("./$name"; echo "rc=$?") | $keep)" \
		"$name: output and exit status unchanged"
	limited "$CS" record -o "$name-pg.data" -- "./$name-pg" > /dev/null 2>&1
	counts "$name-pg.data" > want.txt
	counts "$name.d" > got.txt
	same_file want.txt got.txt "$name: every count equals the -pg build's"
}
same_counts longjmp cc "$PROGS/longjmp.c"
ok "$(grep -q '^inner=50$' got.txt; echo $?)" "longjmp: the frames left are counted"
same_counts exceptions g++ "$PROGS/exceptions.cc"
ok "$(grep -q '^cleanup_call=21$' got.txt; echo $?)" "exceptions: the destructors ran as the throws passed"
same_counts threads cc "$PROGS/threads.c" status-only
same_counts coroutine cc "$PROGS/coroutine.c"
same_counts tailcall cc "$PROGS/tailcall.c"

# A damaged plan: one line, the program runs untraced.
mkdir bad
head -c 100 s/patch.plan > bad/patch.plan
is "$(patched_run bad ./shapes)" "$(./shapes)" "damaged plan: output unchanged"
is "$(wc -l < bad.err):$(grep -c 'patch plan is damaged' bad.err)" "1:1" \
	"damaged plan: one line says so"

# A plan made from another build of the program (rebuilt since, at the
# same path): the bytes differ, the site is refused.
cp shapes rebuilt
mkdir moved
./ppw moved/patch.plan "$WORK/rebuilt" "$plain,6,$((plain + 6))"
cc -O0 -o rebuilt "$PROGS/patch_shapes.c" "$PROGS/patch_shapes.S"
is "$(patched_run moved ./rebuilt)" "$(./shapes)" "changed binary: output unchanged"
ok "$(grep -q '1 function(s) of .* left unpatched, untraced: the loaded code differs' moved.err; echo $?)" \
	"changed binary: the site is refused, and said so"
done_testing
