#!/usr/bin/env bash
# bench/patch-coverage.sh — how many function entries `record --patch`
# patches in real programs built without hooks, beside uftrace's full
# dynamic tracing (`uftrace record -P .`) on the same binaries, and the
# skipped ones counted per reason.  Prints Markdown.
#
# Programs: Lua 5.4 from the Debian source built -O2 and -Os with gcc and
# clang, -O2 -fcf-protection=full (endbr64) and -O2 -no-pie; Debian's /usr/bin/lua5.4
# (stripped); libz.so.1 (planned whole, as dlopen would load it); and
# python3 when it is installed.  Each is run once with a short workload,
# so the recording also says the program ran.  Then the counts of every
# function against the -pg build's, for the four Lua builds.
#
# uftrace's figures come from its own debug lines ("patched", "failed",
# "skipped" under --debug-domain dynamic:3), over the functions of its own
# list (symbols: .symtab, else .dynsym); callscope's are over .symtab,
# .dynsym and the FDEs together, with .cold/.part parts left out.
#
#   BENCH_DIR   builds and data (default /tmp/callscope-bench-patch); the
#               Lua source is looked for under BENCH_DIR/src as run.sh does
#   CALLSCOPE   the CLI (default <repo>/build/callscope)
#   CS_OPTS     more 'callscope record' options (default --no-libcall: the
#               program's own functions, as uftrace's --no-libcall)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench-patch}
CALLSCOPE=${CALLSCOPE:-$ROOT/build/callscope}
CS_OPTS=${CS_OPTS---no-libcall}

BASE_CFLAGS="-g"
declare -A BFLAGS=([O2]="-O2" [clang]="-O2" [Os]="-Os" [clang-Os]="-Os" [cet]="-O2 -fcf-protection=full"
	[nopie]="-O2 -fno-pie -no-pie")
declare -A BCC=([clang]=clang [clang-Os]=clang)
# the same with Lua's string-hash seed fixed (it mixes in the time and
# addresses), plain and -pg, whose counts the patched runs must equal
SEED="-Dluai_makeseed(L)=0"
for b in O2 clang Os clang-Os; do
	BFLAGS[$b-seed]="${BFLAGS[$b]} $SEED"
	BFLAGS[$b-seed-pg]="${BFLAGS[$b]} $SEED -pg"
	BCC[$b-seed]=${BCC[$b]:-gcc}
	BCC[$b-seed-pg]=${BCC[$b]:-gcc}
done
# shellcheck source=bench/build_lua.sh
. "$HERE/build_lua.sh"
lua_bench_setup || exit 1
for b in O2 clang Os clang-Os cet nopie; do
	build_lua "$b"
done
for b in O2 clang Os clang-Os; do
	build_lua "$b-seed"
	build_lua "$b-seed-pg"
done
WORK="$HERE/progs/work.lua"
LIBZ=$(ls /usr/lib/x86_64-linux-gnu/libz.so.1 /lib/x86_64-linux-gnu/libz.so.1 2>/dev/null | head -1 || true)

# name | program and arguments | --patch SPEC | uftrace -P pattern
TARGETS=(
	"lua -O2 (gcc, own build)|$BIN/lua-O2 $WORK 20 2||."
	"lua -O2 (clang)|$BIN/lua-clang $WORK 20 2||."
	"lua -Os (gcc)|$BIN/lua-Os $WORK 20 2||."
	"lua -Os (clang)|$BIN/lua-clang-Os $WORK 20 2||."
	"lua -O2 -fcf-protection=full|$BIN/lua-cet $WORK 20 2||."
	"lua -O2 -no-pie (gcc)|$BIN/lua-nopie $WORK 20 2||."
	"/usr/bin/lua5.4 (Debian, stripped)|/usr/bin/lua5.4 $WORK 20 2||."
)
[ -n "$LIBZ" ] && TARGETS+=("libz.so.1 (Debian, stripped)|$BIN/lua-O2 $WORK 20 2|$LIBZ|.@libz.so.1")
PY=$(readlink -f /usr/bin/python3 2>/dev/null || true)
[ -x "$PY" ] && TARGETS+=("$PY (Debian, stripped)|$PY -c pass||.")

# the uftrace column: "patched / its functions (share)", or why not
uftrace_cell() {
	local pattern=$1 dbg=$RUN/uftrace.dbg
	shift
	if ! command -v uftrace > /dev/null; then
		echo "not installed"
		return
	fi
	rm -rf "$RUN/uf"
	timeout 300 uftrace record -d "$RUN/uf" --no-libcall -P "$pattern" --debug-domain dynamic:3 \
		"$@" > /dev/null 2> "$dbg" || true
	local p f s
	p=$(awk '/dynamic: +patched:/ { print $3 }' "$dbg" | tail -1)
	f=$(awk '/dynamic: +failed:/ { print $3 }' "$dbg" | tail -1)
	s=$(awk '/dynamic: +skipped:/ { print $3 }' "$dbg" | tail -1)
	if [ -z "$p" ]; then
		echo "no report"
		return
	fi
	local n=$((p + ${f:-0} + ${s:-0})) crash=""
	grep -q 'terminated by signal' "$dbg" && crash=" (crashed: $(grep -o 'signal: [0-9]*: [A-Za-z ]*' "$dbg" | head -1))"
	awk -v p="$p" -v n="$n" -v c="$crash" 'BEGIN { printf "%d / %d (%.1f %%)%s\n", p, n, n ? 100 * p / n : 0, c }'
}

echo "## Entry patching coverage (\`bench/patch-coverage.sh\`)"
echo
echo "Run of $(date -u '+%Y-%m-%d %H:%M UTC'); callscope $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'),"
echo "$(uftrace --version 2>/dev/null | head -1 || echo 'uftrace: not installed'); $(gcc --version | head -1); $(clang --version | head -1)."
echo
echo "| program | callscope: patched / functions | of those, by a trap (int3) | fragments left out | skipped, by reason | ran patched | uftrace -P: patched / its functions |"
echo "| --- | ---: | ---: | ---: | --- | --- | ---: |"
for t in "${TARGETS[@]}"; do
	IFS='|' read -r label cmd spec pattern <<< "$t"
	read -r -a argv <<< "$cmd"
	opt=--patch
	[ -n "$spec" ] && opt="--patch=$spec"
	# shellcheck disable=SC2086
	timeout 300 "$CALLSCOPE" record $CS_OPTS "$opt" -o "$RUN/p.data" -- "${argv[@]}" \
		> "$RUN/patched.out" 2> "$RUN/record.err" && rc=0 || rc=$?
	"${argv[@]}" > "$RUN/plain.out" 2> /dev/null || true
	ran="exit $rc"
	cmp -s "$RUN/patched.out" "$RUN/plain.out" && ran="$ran, output unchanged" || ran="$ran, output differs"
	"$CALLSCOPE" info --json "$RUN/p.data" > "$RUN/info.json"
	cells=$(jq -r '.patch | [.patched, .functions, .fragments] | @tsv' "$RUN/info.json")
	read -r patched found fragments <<< "$cells"
	trapped=$(jq '.patch.objects[-1].trapped | length' "$RUN/info.json")
	reasons=$(jq -r '[.patch.objects[-1].skipped | group_by(.reason)[] | "\(length) \(.[0].reason)"] | join("; ")' "$RUN/info.json")
	[ "$spec" ] && { patched=$(jq '.patch.objects[-1].patched' "$RUN/info.json"); found=$(jq '.patch.objects[-1].functions' "$RUN/info.json"); fragments=$(jq '.patch.objects[-1].fragments' "$RUN/info.json"); }
	share=$(awk -v p="$patched" -v n="$found" 'BEGIN { printf "%.1f", n ? 100 * p / n : 0 }')
	uf=$(uftrace_cell "$pattern" "${argv[@]}")
	echo "| $label | $patched / $found ($share %) | $trapped | $fragments | ${reasons:-none} | $ran | $uf |"
done

# Counts against the -pg build of the same source and flags: each run as
# ./lua in a folder of its own, so that both see the same argv (Lua's
# collector paces itself by the bytes allocated, the strings of argv too).
counts() {
	"$CALLSCOPE" report -i "$1" --json |
		jq -r '.functions[] | select(.name | test("^(_init|_fini|_start|frame_dummy|register_tm_clones|deregister_tm_clones|__do_global_dtors_aux)$|[.]part[.]|[.]cold") | not) | "\(.name) \(.calls)"' |
		sort
}
echo
echo "### Counts against the -pg build (string-hash seed fixed)"
echo
echo "| build | functions -pg counts | calls -pg counts | functions whose patched count differs | output |"
echo "| --- | ---: | ---: | ---: | --- |"
declare -A CLABEL=([O2]="gcc -O2" [clang]="clang -O2" [Os]="gcc -Os" [clang-Os]="clang -Os")
for b in O2 clang Os clang-Os; do
	mkdir -p "$RUN/patched" "$RUN/pg"
	cp "$BIN/lua-$b-seed" "$RUN/patched/lua"
	cp "$BIN/lua-$b-seed-pg" "$RUN/pg/lua"
	# shellcheck disable=SC2086
	(cd "$RUN/patched" && "$CALLSCOPE" record $CS_OPTS --patch -o p.data -- ./lua "$WORK" 20 2 > out 2> err)
	# shellcheck disable=SC2086
	(cd "$RUN/pg" && "$CALLSCOPE" record $CS_OPTS -o p.data -- ./lua "$WORK" 20 2 > out 2> err)
	counts "$RUN/pg/p.data" > "$RUN/pg.txt"
	counts "$RUN/patched/p.data" > "$RUN/patched.txt"
	differ=$(join "$RUN/pg.txt" "$RUN/patched.txt" | awk '$2 != $3' | wc -l)
	missing=$(join -v1 "$RUN/pg.txt" "$RUN/patched.txt" | wc -l)
	out="same"
	cmp -s "$RUN/pg/out" "$RUN/patched/out" || out="differs"
	echo "| ${CLABEL[$b]} | $(wc -l < "$RUN/pg.txt") | $(awk '{ s += $2 } END { print s }' "$RUN/pg.txt") | $differ (missing: $missing) | $out |"
done
