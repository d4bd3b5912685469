#!/usr/bin/env bash
# bench/setup.sh — install what the benchmark needs and fetch Lua 5.4's
# Debian source into the scratch folder.  Safe to run again: every step
# checks first and does nothing when its work is already done.
#
# Needs root (apt-get).  Downloads only through apt-get.
#
#   BENCH_DIR   scratch folder (default /tmp/callscope-bench); nothing is
#               written inside the repository.
set -euo pipefail

BENCH_DIR=${BENCH_DIR:-/tmp/callscope-bench}
SRC_LIST=/etc/apt/sources.list.d/callscope-bench-src.sources

say() { printf 'setup: %s\n' "$*" >&2; }
die() { printf 'setup: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "must run as root (it calls apt-get); try 'sudo bench/setup.sh'"
export DEBIAN_FRONTEND=noninteractive

# Tools, and the package that provides each.  uftrace is the peer we race;
# binutils gives gprof; valgrind counts calls when callscope cannot;
# dpkg-dev gives dpkg-source, which 'apt-get source' uses to unpack;
# bench/optimize/programs.sh makes SQLite's one-file source with tclsh and
# jq's configure with autoreconf, links with lld 19 and tables with jq;
# bench/sampling-real.sh builds groff's grammars with bison.
declare -A NEED=(
	[uftrace]=uftrace
	[gprof]=binutils
	[valgrind]=valgrind
	[dpkg-source]=dpkg-dev
	[gcc]=build-essential
	[make]=build-essential
	[python3]=python3-minimal
	[timeout]=coreutils
	[perf]=linux-perf
	[tclsh]=tcl
	[autoreconf]=autoconf
	[automake]=automake
	[libtoolize]=libtool
	[ld.lld-19]=lld-19
	[bison]=bison
	[jq]=jq
)

apt_updated=0
apt_update() {
	if [ "$apt_updated" -eq 0 ]; then
		say "apt-get update"
		apt-get update -qq
		apt_updated=1
	fi
}

missing=()
for tool in "${!NEED[@]}"; do
	command -v "$tool" >/dev/null 2>&1 || missing+=("${NEED[$tool]}")
done
# gperftools' CPU profiler, a peer of bench/sampling.sh, is a library
[ -e /usr/lib/x86_64-linux-gnu/libprofiler.so ] || missing+=(libgoogle-perftools-dev)
if [ "${#missing[@]}" -gt 0 ]; then
	# Sort -u: one package may provide several missing tools.
	mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
	apt_update
	say "installing ${missing[*]}"
	apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# 'apt-get source' needs a deb-src entry.  Debian images often ship only
# binary entries, so derive source entries from the Debian ones that are
# there (same mirror, suites, components and key), in a file of our own so
# the system's files stay untouched.
have_deb_src() {
	grep -qsE '^[[:space:]]*(deb-src|Types:.*deb-src)' \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources
}
if ! have_deb_src; then
	say "adding Debian deb-src entries in $SRC_LIST"
	tmp=$(mktemp)
	# deb822 files: copy each stanza whose URIs point at Debian, as deb-src.
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -e "$f" ] || continue
		awk 'BEGIN { RS = ""; ORS = "\n\n" }
		     /URIs:[^\n]*debian\.org/ { sub(/Types:[^\n]*/, "Types: deb-src"); print }' "$f" >>"$tmp"
	done
	# One-line format: "deb URI suite comp..." becomes "deb-src URI ...".
	one_line=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
		sed -n 's/^[[:space:]]*deb[[:space:]]\(.*debian\.org.*\)/deb-src \1/p' || true)
	if [ -n "$one_line" ]; then
		printf '%s\n' "$one_line" >"${SRC_LIST%.sources}.list"
	fi
	if [ -s "$tmp" ]; then
		install -m 644 "$tmp" "$SRC_LIST"
	fi
	rm -f "$tmp"
	have_deb_src || die "found no Debian entry to derive a deb-src line from; add one by hand"
	# the source indexes come with the next update, even if one ran above
	apt_updated=0
fi

# Source indexes are fetched by 'apt-get update' only; ask apt whether it
# knows lua5.4's source before deciding to update.
if ! apt-cache showsrc lua5.4 2>/dev/null | grep -q '^Package: lua5.4'; then
	apt_update
fi

# 'apt-get source PKG' into $BENCH_DIR/src, the versions apt knows tried
# newest first: a mirror may list a version whose files it no longer
# serves (a security update gone stale gives 404).
fetch_source() {
	local pkg=$1 version
	for version in $(apt-cache showsrc "$pkg" | sed -n 's/^Version: //p' | sort -rV); do
		if (cd "$BENCH_DIR/src" && apt-get source -qq "$pkg=$version" >/dev/null 2>&1); then
			return 0
		fi
		say "apt-get source $pkg=$version failed; trying an older version"
	done
	die "apt-get source $pkg failed for every version apt lists; run 'apt-get update' and try again"
}

mkdir -p "$BENCH_DIR/src"
if ! compgen -G "$BENCH_DIR/src/lua5.4-*/src/lua.c" >/dev/null; then
	say "apt-get source lua5.4 into $BENCH_DIR/src"
	# Plain 'apt-get source' downloads and unpacks (dpkg-source -x) but
	# does not build; that is all we need.
	fetch_source lua5.4
fi
# SQLite, Tcl, jq, gawk and xz-utils for bench/optimize/programs.sh, each
# with a file that shows it is unpacked.
for pkg_file in sqlite3:configure.ac tcl8.6:unix/configure jq:configure.ac gawk:configure.ac \
	xz-utils:configure.ac; do
	pkg=${pkg_file%%:*}
	if ! compgen -G "$BENCH_DIR/src/$pkg-*/${pkg_file#*:}" >/dev/null; then
		say "apt-get source $pkg into $BENCH_DIR/src"
		fetch_source "$pkg"
	fi
done
for lua_dir in "$BENCH_DIR"/src/lua5.4-*/; do
	[ -f "$lua_dir/src/lua.c" ] && break
done
[ -f "$lua_dir/src/lua.c" ] || die "no src/lua.c under '$BENCH_DIR/src'; remove that folder and run again"
# bzip2, a real program whose library calls bench/libcall.sh counts
if ! compgen -G "$BENCH_DIR/src/bzip2-*/bzip2.c" >/dev/null; then
	say "apt-get source bzip2 into $BENCH_DIR/src"
	fetch_source bzip2
fi
say "ready: lua source in ${lua_dir%/}"
