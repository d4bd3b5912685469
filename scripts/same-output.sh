#!/bin/sh
# Checks that a change to the offline tools left every output as it was:
# the same recordings are read by two builds (OLD and NEW, make's O=
# directories) and every report, tree, graph, gprof layout, export format,
# HTML page and info of each is compared byte for byte.
#
#   sh scripts/same-output.sh OLD_BUILD NEW_BUILD [WORKDIR]
#
# The recordings are made once, by OLD's record, and kept in WORKDIR
# (default: a temporary directory), so that later runs compare against
# the very same files: a run is not repeatable, the reading of it is.
# Prints the commands whose outputs differ and exits 1 if any do.
set -eu
[ $# -ge 2 ] || { echo "usage: sh scripts/same-output.sh OLD_BUILD NEW_BUILD [WORKDIR]" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OLD=$(cd "$1" && pwd)
NEW=$(cd "$2" && pwd)
for b in "$OLD" "$NEW"; do
	[ -x "$b/callscope" ] || { echo "same-output: no '$b/callscope'; build it first (make O=...)" >&2; exit 2; }
done
if [ $# -ge 3 ]; then
	mkdir -p "$3"
	WORK=$(cd "$3" && pwd)
else
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/callscope-same.XXXXXX")
	trap 'rm -rf "$WORK"' EXIT
fi

# --- the recordings (made once) -------------------------------------------
rec="$WORK/rec"
if [ ! -f "$rec/.done" ]; then
	rm -rf "$rec" && mkdir -p "$rec" && cd "$rec"
	cc -pg -O2 -fno-inline -g -o wordfreq "$ROOT/examples/wordfreq.c"
	cc -O2 -fno-inline -g -o wordfreq-plain "$ROOT/examples/wordfreq.c"
	cc -finstrument-functions -O0 -g -o basic "$ROOT/tests/progs/basic.c"
	cc -pg -O0 -g -o cycle "$ROOT/tests/progs/cycle.c"
	cc -pg -mfentry -O0 -g -o counters "$ROOT/tests/progs/counters.c"
	"$OLD/callscope" record -o wordfreq.data -- ./wordfreq 20000 >/dev/null 2>&1
	"$OLD/callscope" record -o wordfreq2.data -- ./wordfreq 30000 >/dev/null 2>&1
	"$OLD/callscope" record --mode=count -o wordfreq-count.data -- ./wordfreq 20000 >/dev/null 2>&1
	"$OLD/callscope" record -o wordfreq-sample.data -- ./wordfreq-plain 400000 >/dev/null 2>&1
	"$OLD/callscope" record -o basic.data -- ./basic >/dev/null 2>&1
	"$OLD/callscope" record -o cycle.data -- ./cycle >/dev/null 2>&1
	"$OLD/callscope" record -e task-clock,page-faults -o counters.data -- ./counters \
		>/dev/null 2>&1 || "$OLD/callscope" record -o counters.data -- ./counters >/dev/null 2>&1
	./cycle >/dev/null 2>&1 || true	# its own gmon.out, for gprof
	touch .done
fi

# one counter, where the readers print a list of counters
[ -f "$rec/counter1.data" ] || (cd "$rec" && "$OLD/callscope" record -e page-faults -o counter1.data \
	-- ./counters >/dev/null 2>&1) || true

# --- the readings, by each build ------------------------------------------
# run NAME ARGS...: one output file per command and build; the exit
# status is part of what must stay the same
run() {
	name=$1
	shift
	for side in old new; do
		if [ $side = old ]; then cs="$OLD/callscope"; else cs="$NEW/callscope"; fi
		out="$WORK/$side"
		mkdir -p "$out/files"
		cd "$out/files"
		rm -f ./*
		set +e
		"$cs" "$@" >"$out/$name.out" 2>"$out/$name.err"
		echo "exit $?" >>"$out/$name.err"
		set -e
		# the files the command wrote, beside its stdout
		for f in *; do
			[ -f "$f" ] && cp "$f" "$out/$name.file.$f"
		done
		cd "$WORK"
	done
}

rm -rf "$WORK/old" "$WORK/new"
for r in wordfreq wordfreq2 wordfreq-count wordfreq-sample basic cycle counters counter1; do
	d="$rec/$r.data"
	[ -f "$d" ] || continue
	run "$r.info" info "$d"
	run "$r.info-json" info --json "$d"
	for s in self total calls avg max name; do
		run "$r.report-$s" report --sort=$s "$d"
	done
	run "$r.report-json" report --json "$d"
	run "$r.report-thread" report --thread "$d"
	run "$r.tree" tree "$d"
	run "$r.tree-json" tree --json "$d"
	run "$r.tree-total" tree --sort=total --threshold 0 "$d"
	run "$r.graph" graph "$d"
	run "$r.graph-brief" graph --brief "$d"
	run "$r.graph-json" graph --json "$d"
	run "$r.graph-static" graph --static "$d"
	run "$r.replay" replay "$d"
	run "$r.replay-json" replay --json "$d"
	for fmt in gmon callgrind pprof chrome folded prf; do
		run "$r.export-$fmt" export "$d" --format=$fmt -o out.$fmt
	done
	run "$r.export-folded-calls" export "$d" --format=folded --value=calls -o -
	run "$r.html" html "$d" -o page.html
	run "$r.annotate-counts" annotate --counts -i "$d"
done
run diff.report diff "$rec/wordfreq.data" "$rec/wordfreq2.data"
run diff.json diff --json "$rec/wordfreq.data" "$rec/wordfreq2.data"
run html.base html "$rec/wordfreq2.data" --base "$rec/wordfreq.data" -o page.html
run merge merge -o merged.data "$rec/wordfreq.data" "$rec/wordfreq2.data"
run optimize optimize "$rec/wordfreq.data"
# optimize --measure under cachegrind, whose simulated counts are the same
# for the same binary and input
if command -v valgrind >/dev/null; then
	# two builds without -pg: a profiled one would be stopped by SIGPROF
	[ -x "$rec/wordfreq-O0" ] || cc -O0 -g -o "$rec/wordfreq-O0" "$ROOT/examples/wordfreq.c"
	run measure optimize --measure "$rec/wordfreq-O0" "$rec/wordfreq-plain" --cache=8K,2,32 -- 3000
	run measure-json optimize --measure "$rec/wordfreq-O0" "$rec/wordfreq-plain" --json -- 3000
fi
run measure-missing optimize --measure "$rec/wordfreq-plain" "$rec/no-such-binary" -- 3000

# gprof on a gmon.out written by the program itself, in every layout
for opts in "" "-b" "-p" "-q" "-b -z" "-b -c" "-b -a" "-b -l" "-b -L -l" "-i" "-T" "-b -C" \
	"-b -A" "-O b -b" "-O 4 -b" "--compat=strict -b" "-b -w 60" "-b --no-demangle"; do
	tag=$(echo "gprof$opts" | tr ' =' '__')
	run "$tag" gprof $opts "$rec/cycle" "$rec/gmon.out"
done
run gprof-sum gprof -s "$rec/cycle" "$rec/gmon.out" "$rec/gmon.out"

if diff -r "$WORK/old" "$WORK/new" >"$WORK/diff.txt"; then
	n=$(ls "$WORK/old" | wc -l)
	echo "same-output: all $n outputs the same"
else
	echo "same-output: outputs differ between '$OLD' and '$NEW':"
	grep '^diff\|^Only' "$WORK/diff.txt" | sed 's/^/  /'
	echo "(details in $WORK/diff.txt)"
	exit 1
fi
