# Builds shared by the benchmarks (sourced): the Lua interpreter from the
# Debian source tree, one binary per instrumentation.  Needs BIN (the
# output folder) and lua_src (the tree's src/), as lua_bench_setup sets
# them, BASE_CFLAGS and BFLAGS (flags
# per binary name) from the caller, and optionally BCC (the compiler per
# binary name; gcc for the others).

# lua_bench_setup: the start every Lua benchmark shares: BIN and RUN under
# BENCH_DIR (made), say(), and lua_src; fails, having said what to do,
# when the Lua source is missing.
lua_bench_setup() {
	BIN=$BENCH_DIR/bin
	RUN=$BENCH_DIR/run
	mkdir -p "$BIN" "$RUN"
	say() { printf 'bench: %s\n' "$*" >&2; }
	lua_src=$(lua_source_dir) || return 1
}

# lua_plain_and_pg: lua_bench_setup, then the benchmark's two usual
# builds at -O2 -g, BIN/lua-plain and BIN/lua-pg (-pg), and WORK, the
# script they run; fails as lua_bench_setup does.
lua_plain_and_pg() {
	BASE_CFLAGS="-O2 -g"
	declare -gA BFLAGS=([plain]="" [pg]="-pg")
	lua_bench_setup || return 1
	build_lua plain
	build_lua pg
	WORK="$(dirname "${BASH_SOURCE[0]}")/progs/work.lua"
}

# lua_source_dir: prints the src/ of the Lua tree that bench/setup.sh
# unpacks under $BENCH_DIR/src, or says what to do and fails.
lua_source_dir() {
	local d
	for d in "$BENCH_DIR"/src/lua5.4-*/src; do
		[ -f "$d/lua.c" ] && { echo "$d"; return 0; }
	done
	echo "bench: no Lua source under '$BENCH_DIR/src'; run bench/setup.sh first" >&2
	return 1
}

# needs_build OUT SOURCES...: true when OUT is missing or older than any
# source or than this script (whose flags may have changed).
needs_build() {
	local out=$1 src
	shift
	[ -e "$out" ] || return 0
	for src in "$@" "${BASH_SOURCE[0]}"; do
		[ "$src" -nt "$out" ] && return 0
	done
	return 1
}

# Lua is compiled directly from the Debian source tree's src/ (all of it but
# the luac compiler), with the flags of Lua's own 'linux' target; Debian's
# makefile goes through libtool and a shared library, which would put the
# interpreter's functions out of reach of -pg's mcount in the executable.
build_lua() {
	local b=$1 out=$BIN/lua-$1 extra=() srcs
	[ "$b" = hooks ] && extra=("$BIN/empty_hooks.o")
	local f
	srcs=()
	for f in "$lua_src"/*.c; do
		[ "${f##*/}" = luac.c ] || srcs+=("$f")
	done
	if needs_build "$out" "${srcs[@]}" "${extra[@]}"; then
		# Debian's luaconf.h includes a generated header naming the
		# multiarch triplet (for module paths); make it in the scratch dir.
		mkdir -p "$BIN/lua-include"
		printf '#define DEB_HOST_MULTIARCH "%s"\n' \
			"$(gcc -print-multiarch || echo x86_64-linux-gnu)" \
			>"$BIN/lua-include/lua5.4-deb-multiarch.h"
		# shellcheck disable=SC2086
		# the compiler: BCC[NAME] when the caller declares one, else gcc
		local cc=gcc
		if declare -p BCC > /dev/null 2>&1; then
			cc=${BCC[$b]:-gcc}
		fi
		$cc -std=gnu99 $BASE_CFLAGS ${BFLAGS[$b]} -I"$BIN/lua-include" \
			-DLUA_COMPAT_5_3 -DLUA_USE_LINUX -o "$out" "${srcs[@]}" "${extra[@]}" -lm -ldl
	fi
}

