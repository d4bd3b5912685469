#!/usr/bin/env bash
# bench/optimize/run.sh — does callscope's link order pay on a real program?
#
#   bench/setup.sh && make && bench/optimize/run.sh      (about 6 minutes on 2 cores)
#
# Lua 5.4 from Debian's source is compiled with -ffunction-sections, its
# instrumented build is recorded on the training input (bench/progs/work.lua),
# and the release build is relinked with lld in several orders:
#
#   default      the linker's own order (the objects' order)
#   executed     the executed functions first, in their default order
#   lld-c3       lld's C3 fed callscope's call graph (--call-graph-ordering-file)
#   lld-cdsort   lld's newer cache-directed sort, same call graph
#   callscope    callscope's order (its default algorithm)
#   callscope-time  the same with --weight=time (self time, not calls, as heat)
#   cph, c3, pettis-hansen   callscope's other algorithms (the default's
#                row is 'callscope'), for the choice of the default
#
# Every layout is measured on the held-out input (heldout.lua) by
# 'callscope optimize --measure': I1 misses simulated by cachegrind for a
# 32 KiB 8-way 64-byte cache and an 8 KiB 2-way 32-byte one, each the mean
# (and range) over code offsets, and the 4 KiB pages holding 90 % of the
# executed instructions.  The offsets are bytes of padding in front of the
# code: 0, 16, 64 and 1024, and twelve more spread over the 4 KiB that one
# way of either cache spans, because a layout's misses depend on where its
# code falls against the C library's (which no link order moves) and four
# nearby offsets sample that too little.  Markdown on stdout (a copy in
# $BENCH_DIR/optimize/results.md).
#
# Knobs (environment):
#   BENCH_DIR       scratch folder (default /tmp/callscope-bench); nothing is
#                   written in the repository
#   CALLSCOPE       the CLI (default <repo>/build/callscope)
#   TRAIN_ARGS      work.lua arguments for training (default "22 5")
#   HELDOUT_ARGS    heldout.lua arguments for measuring (default "5")
#   OFFSETS         the code offsets (default: the sixteen above)
#   CACHE_SIZE      --cache-size for callscope's orders (default 32K: the cache
#                   the budget is judged on, whatever this host's L1i is, so
#                   runs on different machines lay Lua out the same way)
#   LAYOUTS         which layouts to measure (default: all of the above)
#   JOBS            cachegrind runs at once (default: CPUs)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
TRAIN_ARGS=${TRAIN_ARGS:-22 5}
HELDOUT_ARGS=${HELDOUT_ARGS:-5}
OFFSETS=${OFFSETS:-0,16,64,1024,272,528,784,1296,1552,1808,2064,2320,2576,2832,3088,3600}
CACHE_SIZE=${CACHE_SIZE:-32K}
LAYOUTS=${LAYOUTS:-default executed lld-c3 lld-cdsort callscope callscope-time c3 cph pettis-hansen}
JOBS=${JOBS:-$(nproc)}

OUT=$BENCH_DIR/optimize
LOG=$OUT/log
say() { printf 'optimize-bench: %s\n' "$*" >&2; }
die() { printf 'optimize-bench: %s\n' "$*" >&2; exit 1; }

[ -x "$CALLSCOPE" ] || die "'$CALLSCOPE' not found; run 'make' at the repository root"
command -v valgrind >/dev/null || die "valgrind is missing; run bench/setup.sh"
# shellcheck source=bench/build_lua.sh
. "$HERE/../build_lua.sh"
lua_src=$(lua_source_dir) || exit 1

# lld: version 19 from Debian's lld-19 if there, else the default ld.lld.
# gcc's -fuse-ld=lld runs the first 'ld.lld' it finds on its -B path.
LLD=""
for l in ld.lld-19 ld.lld; do
	command -v "$l" >/dev/null && LLD=$(command -v "$l") && break
done
[ -n "$LLD" ] || die "lld is missing; install lld-19 (scripts/deps/optimize.txt)"
mkdir -p "$OUT/lld" "$OUT/plain" "$OUT/pg" "$OUT/inc" "$LOG"
ln -sf "$LLD" "$OUT/lld/ld.lld"
LINK=(gcc -B "$OUT/lld" -fuse-ld=lld)
SORT_FLAG=""
lld_help=$("$LLD" --help 2>/dev/null || true)
case $lld_help in *--call-graph-profile-sort*) SORT_FLAG=yes ;; esac

# ---- build: the release objects and an instrumented copy -----------------
CFLAGS=(-std=gnu99 -O2 -g -ffunction-sections -I"$OUT/inc" -DLUA_COMPAT_5_3 -DLUA_USE_LINUX)
printf '#define DEB_HOST_MULTIARCH "%s"\n' "$(gcc -print-multiarch || echo x86_64-linux-gnu)" \
	>"$OUT/inc/lua5.4-deb-multiarch.h"
say "compiling Lua from $lua_src (release and -pg objects)"
objs=()
for f in "$lua_src"/*.c; do
	b=$(basename "$f" .c)
	[ "$b" = luac ] && continue
	objs+=("$b.o")
	for kind in plain pg; do
		o=$OUT/$kind/$b.o
		[ "$o" -nt "$f" ] && continue
		flags=()
		[ $kind = pg ] && flags=(-pg)
		gcc "${CFLAGS[@]}" "${flags[@]}" -c "$f" -o "$o" &
		while [ "$(jobs -r | wc -l)" -ge "$JOBS" ]; do wait -n; done
	done
done
wait
cd "$OUT"
PLAIN=("${objs[@]/#/plain/}")
gcc -pg -o lua-pg "${objs[@]/#/pg/}" -lm -ldl
"${LINK[@]}" -o lua-default "${PLAIN[@]}" -lm -ldl -Wl,-Map=lua-default.map

# ---- train -----------------------------------------------------------------
say "recording the training run: work.lua $TRAIN_ARGS"
# shellcheck disable=SC2086
"$CALLSCOPE" record -o train.data -- ./lua-pg "$ROOT/bench/progs/work.lua" $TRAIN_ARGS \
	>"$LOG/train.out" 2>&1 || die "recording failed; see $LOG/train.out"

cache_opt=(--cache-size="$CACHE_SIZE")
order_cmd() {	# ALGORITHM PREFIX [OPTION...]
	local alg=$1 prefix=$2
	shift 2
	"$CALLSCOPE" optimize -i train.data --binary lua-default --map lua-default.map \
		--algorithm="$alg" -o "$prefix" "${cache_opt[@]}" "$@" >"$LOG/optimize-$prefix.out" 2>&1 ||
		die "callscope optimize --algorithm=$alg failed; see $LOG/optimize-$prefix.out"
}
default_alg=$("$CALLSCOPE" optimize --help | sed -n 's/.*--algorithm NAME  \([a-z0-9-]*\) (default).*/\1/p')
[ -n "$default_alg" ] || die "cannot tell callscope's default algorithm from 'optimize --help'"
# The default algorithm's row is 'callscope'.
LAYOUTS=$(for l in $LAYOUTS; do [ "$l" = "$default_alg" ] || printf '%s ' "$l"; done)

# Each layout ends as a symbol ordering file NAME.order, so that every one
# is linked the same way and --relink can put the padding in front of it.
for l in $LAYOUTS; do
	case $l in
	default) ;;
	executed) order_cmd executed executed ;;
	callscope) order_cmd "$default_alg" callscope ;;
	callscope-time) order_cmd "$default_alg" callscope-time --weight=time ;;
	cph | c3 | pettis-hansen) order_cmd "$l" "$l" ;;
	lld-c3 | lld-cdsort)
		[ -f callscope.cg ] || order_cmd "$default_alg" callscope
		sort=()
		if [ -n "$SORT_FLAG" ]; then
			sort=(-Wl,--call-graph-profile-sort="${l#lld-}")
			[ "$l" = lld-c3 ] && sort=(-Wl,--call-graph-profile-sort=hfsort)
		elif [ "$l" = lld-cdsort ]; then
			say "this lld has no cdsort; skipping lld-cdsort"
			continue
		fi
		# The order lld chose, as a symbol ordering file: the functions of
		# the call graph in the address order lld gave them (lld prints
		# its C3 order itself, but not its cdsort order).
		"${LINK[@]}" -o "lua-$l.tmp" "${PLAIN[@]}" -lm -ldl \
			-Wl,--call-graph-ordering-file=callscope.cg "${sort[@]}"
		awk '{ print $1; print $2 }' callscope.cg | sort -u >graph-functions.txt
		nm -n --defined-only "lua-$l.tmp" | awk '$2 == "t" || $2 == "T" { print $3 }' |
			grep -Fx -f graph-functions.txt >"$l.order" || true
		rm -f "lua-$l.tmp"
		;;
	*) die "unknown layout '$l'" ;;
	esac
	if [ "$l" = default ]; then
		continue
	fi
	"${LINK[@]}" -o "lua-$l" "${PLAIN[@]}" -lm -ldl -Wl,--symbol-ordering-file="$l.order"
done

cat >relink.sh <<EOF
#!/bin/sh
# Relinks the layout \$CALLSCOPE_BINARY names with the padding object first.
set -e
cd "$OUT"
name=\$(basename "\$CALLSCOPE_BINARY")
flags=
if [ "\$name" != lua-default ]; then
	{ echo "\$CALLSCOPE_PAD_SYMBOL"; cat "\${name#lua-}.order"; } >"\$CALLSCOPE_OUT.order"
	flags="-Wl,--symbol-ordering-file=\$CALLSCOPE_OUT.order"
fi
exec ${LINK[*]} -o "\$CALLSCOPE_OUT" "\$CALLSCOPE_PAD_OBJECT" ${PLAIN[*]} -lm -ldl \$flags
EOF
chmod +x relink.sh

# ---- measure on the held-out input ----------------------------------------
bins=()
for l in $LAYOUTS; do
	[ -x "lua-$l" ] && bins+=("lua-$l")
done
say "measuring ${#bins[@]} layouts on heldout.lua $HELDOUT_ARGS (cachegrind, offsets $OFFSETS, 2 caches)"
measure=("$CALLSCOPE" optimize --measure "${bins[@]}" --relink=./relink.sh -j "$JOBS"
	--offsets="$OFFSETS" --cache=32K,8,64 --cache=8K,2,32)
# shellcheck disable=SC2086
"${measure[@]}" --json -- "$HERE/heldout.lua" $HELDOUT_ARGS \
	>measure.json 2>"$LOG/measure.err" || die "measuring failed; see $LOG/measure.err"

# ---- the table ---------------------------------------------------------------
hot=$(sed -n 's/^# hot code   \([0-9]*\) bytes.*/\1/p' callscope.lor 2>/dev/null || true)
cap=$(sed -n 's/^# cache      \([0-9]*\) bytes.*/\1/p' callscope.lor 2>/dev/null || true)
{
	echo "## Run: link order on Lua 5.4 — $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Command: \`bench/setup.sh && make && bench/optimize/run.sh\` (TRAIN_ARGS=\"$TRAIN_ARGS\" HELDOUT_ARGS=\"$HELDOUT_ARGS\" CACHE_SIZE=$CACHE_SIZE)."
	echo "Machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)."
	echo "Tools: $(gcc --version | head -1); $("$LLD" --version | head -1); $(valgrind --version); callscope $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || "$CALLSCOPE" --version)$(git -C "$ROOT" diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')."
	echo "Trained on \`work.lua $TRAIN_ARGS\` (-pg build), measured on \`heldout.lua $HELDOUT_ARGS\`;"
	echo "callscope's default algorithm: \`$default_alg\`; clusters capped at ${cap:-?} bytes (CACHE_SIZE); ${hot:-?} bytes of hot code in the training run."
	echo "I1 misses: cachegrind, mean over $(jq '.offsets | length' measure.json) code offsets ($OFFSETS bytes of padding) [min–max]; change against default."
	echo "Layouts: \`executed\` = \`callscope optimize --algorithm=executed\`; \`lld-c3\` and \`lld-cdsort\` = lld fed \`callscope.cg\`"
	echo "(\`--call-graph-ordering-file\`, \`--call-graph-profile-sort=hfsort|cdsort\`); \`callscope\` = \`callscope optimize\` ($default_alg);"
	echo "\`callscope-time\` = the same with \`--weight=time\` (self time as heat instead of calls);"
	echo "\`cph\`, \`c3\`, \`pettis-hansen\` = \`callscope optimize --algorithm=NAME\`. All linked by lld 19 as symbol ordering files."
	echo
	jq -r '
		def fmt: tostring | explode | reverse | [recurse(if length > 3 then .[3:] else empty end) | .[0:3]] | map(reverse) | reverse | map(implode) | join(",");
		def n: . + 0.5 | floor | fmt;
		def pct: (if . >= 0 then "+" else "" end) + ((. * 10 | round) / 10 | tostring) + "%";
		"| layout | instructions | I1 misses 32K/8/64 | vs default | I1 misses 8K/2/32 | vs default | pages for 90% |",
		"| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
		(.binaries[] |
			"| \(.path | sub("^lua-"; "")) | \(.instructions | n) | \(.caches[0].mean | n) [\(.caches[0].min | n)–\(.caches[0].max | n)] | \(.caches[0].change_pct | pct) | \(.caches[1].mean | n) [\(.caches[1].min | n)–\(.caches[1].max | n)] | \(.caches[1].change_pct | pct) | \(.pages90) |")
	' measure.json
	echo
	# Budget: callscope's order beats executed-first and is at least as good
	# as lld's C3 on the 32 KiB cache (mean over offsets) and pages-for-90%.
	echo "Budget (held-out input): callscope's order beats executed-first, and is at least as good as lld's C3, on I1 32K/8/64 and on pages for 90%."
	echo
	jq -r '
		def get($n): .binaries[] | select(.path == "lua-" + $n);
		if ([.binaries[].path] | index("lua-callscope")) == null then "budget: callscope layout not measured" else
		(get("callscope")) as $c |
		([ ("executed", "lld-c3") as $b | select([.binaries[].path] | index("lua-" + $b)) | get($b) as $o |
		   if $b == "executed" then
		     "| beats executed-first, I1 32K | \($c.caches[0].mean | floor) < \($o.caches[0].mean | floor) | \(if $c.caches[0].mean < $o.caches[0].mean then "PASS" else "FAIL" end) |",
		     "| beats executed-first, pages for 90% | \($c.pages90) < \($o.pages90) | \(if $c.pages90 < $o.pages90 then "PASS" else "FAIL" end) |"
		   else
		     "| at least as good as lld C3, I1 32K | \($c.caches[0].mean | floor) <= \($o.caches[0].mean | floor) | \(if $c.caches[0].mean <= $o.caches[0].mean then "PASS" else "FAIL" end) |",
		     "| at least as good as lld C3, pages for 90% | \($c.pages90) <= \($o.pages90) | \(if $c.pages90 <= $o.pages90 then "PASS" else "FAIL" end) |"
		   end ]) as $rows |
		"| check | numbers | result |", "| --- | --- | --- |", $rows[] end
	' measure.json
} | tee "$OUT/results.md"
