#!/bin/sh
# clang -flto -pg: the link-time optimizer inlines work() into main's loop
# with work's call to mcount kept there.  That hook, in main's frame, is
# no call (gdb counts main once): main is not counted again at each pass,
# nor its frames piled up, while the true tail calls beside it (ping and
# pong, tail-calling each other) are all counted.
. "$(dirname "$0")/lib.sh"

LIMIT=30
lto_build() {
	clang -g -O2 -flto -pg "$@" -o lt "$PROGS/lto_inlined_main.c" "$PROGS/lto_inlined_work.c" \
		2> /dev/null
}
if ! lto_build -fuse-ld=lld && ! lto_build --ld-path="$(command -v ld.lld-19)"; then
	echo "1..0 # SKIP clang -flto needs lld (ld.lld or ld.lld-19)"
	exit 0
fi
if [ "$(objdump -d --no-show-raw-insn lt | awk '/<main>:/,/ret/' | grep -c 'call.*mcount')" -lt 2 ]; then
	echo "1..0 # SKIP this clang kept no mcount call of an inlined function in main"
	exit 0
fi
plan 5
out=$(limited "$CS" record -o l.data -- ./lt 1000 2> /dev/null)
is "$?:$out" "0:$(./lt 1000)" "the program runs as it does alone"
is "$(calls_of l.data main)" 1 "main is entered once: the inlined copy's hook is no call"
is "$(calls_of l.data ping)/$(calls_of l.data pong)" "501/500" "the true tail calls are all counted"
limited "$CS" record --mode=count -o c.data -- ./lt 1000 > /dev/null 2>&1
is "$(calls_of c.data main)/$(calls_of c.data ping)" "1/501" "--mode=count: the same counts"
limited "$CS" record --mode=count --time-by=samples -o s.data -- ./lt 1000 > /dev/null 2>&1
is "$(calls_of s.data main)/$(calls_of s.data ping)" "1/501" "--time-by=samples: the same counts"
