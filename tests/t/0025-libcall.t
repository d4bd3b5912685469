#!/bin/sh
# Library calls through the PLT and GOT are traced by default: exact
# counts (known ones, and uftrace's where it is installed), callbacks
# nested under the library function, --no-libcall and --libcall=SPEC.
. "$(dirname "$0")/lib.sh"

plan 36
# build SOURCE OUTPUT FLAGS...: with libm and libdl after the source
build() {
	src=$1
	out=$2
	shift 2
	cc -g -O2 -fno-builtin "$@" -o "$out" "$PROGS/$src.c" -lm -ldl -lpthread
}
build libcall plain
build libcall lc -pg
expected=$(./plain)
is "$(limited "$CS" record -o lc.data -- ./lc 2>/dev/null)" "$expected" "output unchanged"

counts() {
	"$CS" report -i "$1" --json |
		jq -r '[.functions[] | select(.name | test("^(snprintf|strlen|strcpy|sqrt|cos|malloc|free|qsort|printf)$")) | "\(.name)=\(.calls)"] | sort | join(" ")'
}
is "$(counts lc.data)" \
	"cos=2000 free=2001 malloc=2001 printf=1 qsort=1 snprintf=2000 sqrt=2000 strcpy=2000 strlen=2000" \
	"every library function counted exactly, by its own name"
cmp_calls=$(calls_of lc.data cmp)
is "$(calls_of lc.data strcmp)" "$cmp_calls" "strcmp counted once per comparison"
"$CS" graph -i lc.data --json > g.json
is "$(jq -r '[.arcs[] | select(.callee=="cmp") | "\(.caller)=\(.count)"] | join(",")' g.json)" \
	"qsort=$cmp_calls" "the callback nests under qsort"
is "$(jq -r '[.arcs[] | select(.callee=="qsort") | .caller] | join(",")' g.json)" "main" \
	"main calls qsort"
is "$(jq -r '[.arcs[] | select(.callee=="strcmp") | "\(.caller)=\(.count)"] | join(",")' g.json)" \
	"cmp=$cmp_calls" "cmp's tail call into strcmp stays under cmp"
is "$("$CS" report -i lc.data --json |
	jq -r '.functions[] | select(.name=="qsort") | "\(.object | test("libc[.]so")) \(.total_ns > .self_ns)"')" \
	"true true" "qsort is libc's, and its total includes the callbacks"
"$CS" tree -i lc.data --json |
	jq -r '[.. | objects | select(has("children")) | .name as $p | .children[] | "\($p)/\(.name)"] | map(select(test("^(main/qsort|qsort/cmp|cmp/strcmp)$"))) | sort | join(",")' > paths.txt
is "$(cat paths.txt)" "cmp/strcmp,main/qsort,qsort/cmp" "the tree holds main/qsort/cmp/strcmp"
"$CS" replay -i lc.data > replay.txt
ok "$(grep -c '  strcmp$' replay.txt | grep -qx "$cmp_calls"; echo $?)" "replay shows each strcmp"
"$CS" export -i lc.data --format folded --value calls > folded.txt
ok "$(grep -q '^main;qsort;cmp' folded.txt; echo $?)" "folded stacks hold main;qsort;cmp"
"$CS" html -i lc.data -o lc.html 2>/dev/null
ok "$(grep -q 'snprintf' lc.html; echo $?)" "the HTML page names the library functions"

if command -v uftrace > /dev/null; then
	limited uftrace record -d uft.data ./lc > /dev/null 2>&1
	uft=$(uftrace report -d uft.data -f call 2>/dev/null |
		awk '$2 ~ /^(snprintf|strlen|strcpy|sqrt|cos|malloc|free|qsort|printf|strcmp)$/ { print $2 "=" $1 }' | sort | tr '\n' ' ')
	ours=$("$CS" report -i lc.data --json |
		jq -r '.functions[] | select(.name | test("^(snprintf|strlen|strcpy|sqrt|cos|malloc|free|qsort|printf|strcmp)$")) | "\(.name)=\(.calls)"' | sort | tr '\n' ' ')
	is "$ours" "$uft" "counts equal uftrace's libcall tracing"
else
	skip "uftrace not installed"
fi

limited "$CS" record --no-libcall -o off.data -- ./lc > /dev/null 2>&1
is "$(calls_of off.data strlen)/$(calls_of off.data cmp)" "0/$cmp_calls" "--no-libcall traces none"
limited "$CS" record --libcall=sqrt,str* -o some.data -- ./lc > /dev/null 2>&1
is "$(calls_of some.data sqrt)/$(calls_of some.data strlen)/$(calls_of some.data cos)/$(calls_of some.data malloc)" \
	"2000/2000/0/0" "--libcall=NAME,PREFIX* keeps only those"
limited "$CS" record --libcall=libm.so -o libm.data -- ./lc > /dev/null 2>&1
is "$(calls_of libm.data cos)/$(calls_of libm.data malloc)" "2000/0" "--libcall=OBJECT keeps that object's"
err=$("$CS" record --libcall=a,,b -- ./lc 2>&1 >/dev/null); rc=$?
is "$rc/$(echo "$err" | wc -l)" "2/1" "a bad --libcall list: one line, usage exit"

# Every binding shape: the same known counts.
want="_setjmp=5 format=10 jump=5 longjmp=5 main=1 printf=1 snprintf=10 sqrt=7 strlen=100"
shape_counts() {
	"$CS" report -i "$1" --json |
		jq -r '[.functions[] | select(.name != "strcmp") | "\(.name)=\(.calls)"] | sort | join(" ")'
}
n=0
for flags in "-pg" "-pg -Wl,-z,now" "-pg -no-pie" "-pg -fno-plt" "-pg -fno-plt -no-pie" \
	"-pg -fcf-protection=full -Wl,-z,ibtplt" "-pg -mfentry" "-finstrument-functions"; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	build libcall_shapes "s$n" $flags
	limited "$CS" record -o "s$n.data" -- "./s$n" longjmp > /dev/null 2>&1
	is "$(shape_counts "s$n.data")" "$want" "$flags: counts, setjmp returning twice, longjmp"
done
LD_BIND_NOW=1 limited "$CS" record -o now.data -- ./s1 longjmp > /dev/null 2>&1
is "$(shape_counts now.data)" "$want" "LD_BIND_NOW=1: the same counts"

build libcall_shapes shapes -pg
for mode in fork vfork thread; do
	is "$(limited "$CS" record -o "$mode.data" -- ./shapes $mode 2>/dev/null)" \
		"$(./shapes $mode)" "$mode: output unchanged"
done
is "$(calls_of fork.data strlen)/$(calls_of fork.data fork)/$(calls_of fork.data _exit)" "103/1/1" \
	"fork: parent and child counted, the child's in its own process"
is "$(calls_of vfork.data vfork)/$(calls_of vfork.data waitpid)/$(calls_of thread.data strlen)" "1/1/104" \
	"vfork returns twice; a thread's library calls count"
is "$(calls_of thread.data pthread_create)/$(calls_of thread.data pthread_exit)" "1/1" \
	"the runtime's stand-ins are traced under libc's names"

# C++ exceptions thrown and rethrown through library calls (known counts:
# tests/progs/exceptions.cc)
g++ -g -O2 -pg -o exc "$PROGS/exceptions.cc" -lpthread
is "$(limited "$CS" record -o exc.data -- ./exc 2>/dev/null)" "$(./exc)" \
	"C++ exceptions: output unchanged"
is "$(calls_of exc.data __cxa_throw)/$(calls_of exc.data __cxa_rethrow)/$(calls_of exc.data cleanup_call)" \
	"17/10/21" "__cxa_throw and __cxa_rethrow counted, every destructor still run"
limited "$CS" record -o exit.data -- ./shapes exit > /dev/null 2>&1
"$CS" graph -i exit.data --json > ge.json
is "$(jq -r '[.arcs[] | select(.callee=="at_end" or .callee=="exit") | "\(.caller)>\(.callee)"] | sort | join(",")' ge.json)" \
	"exit>at_end,quit>exit" "exit never returns; its atexit handler nests under it"
limited "$CS" record -o abort.data -- ./shapes abort > /dev/null 2>&1
is "$?/$(calls_of abort.data abort)" "134/1" "abort: the program dies as before, the call is kept"

cc -g -O2 -pg -fno-builtin -fPIC -shared -o libcall_plugin.so "$PROGS/libcall_plugin.c"
limited "$CS" record -o dl.data -- ./shapes dlopen > /dev/null 2>&1
"$CS" graph -i dl.data --json > gd.json
is "$(jq -r '[.arcs[] | select(.callee=="strlen") | "\(.caller)=\(.count)"] | sort | join(",")' gd.json)" \
	"main=100,plugin_work=8" "a dlopen'ed object with hooks has its library calls traced"
done_testing
