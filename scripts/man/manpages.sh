#!/bin/sh
# Writes the manual pages from the docs/ pages, so the two cannot drift:
# callscope(1) from docs/callscope.md and callscope-CMD(1) from docs/CMD.md
# for every command the CLI's table lists (its --help), each command's
# one-line summary taken from that table.  pandoc does the conversion;
# manpage.lua gives each page the manual's sections.
#
#   scripts/man/manpages.sh CALLSCOPE OUTDIR
set -eu
cs=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
docs="$here/../../docs"
command -v pandoc > /dev/null ||
	{ echo "manpages.sh: pandoc is needed to write the manual pages; apt-get install pandoc" >&2; exit 1; }

version=$("$cs" --version | sed 's/^callscope //')
# "  record    run a program and record its calls" -> "record<TAB>summary"
table=$("$cs" --help | sed -n 's/^  \([a-z][a-z]*\)  *\(.*\)$/\1	\2/p')
[ -n "$table" ] || { echo "manpages.sh: '$cs --help' lists no commands" >&2; exit 1; }
commands=$(printf '%s\n' "$table" | cut -f1 | tr '\n' ' ')

mkdir -p "$out"
page() { # NAME SUMMARY DOC
	[ -f "$3" ] || { echo "manpages.sh: '$3' is missing; every command needs its page" >&2; exit 1; }
	pandoc -f markdown -t man -s --lua-filter="$here/manpage.lua" \
		-M name="$1" -M summary="$2" -M commands="$commands" \
		-M title="$1" -M section=1 -M footer="callscope $version" \
		-M header="callscope manual" -M date="" \
		-o "$out/$1.1" "$3"
}
page callscope "a profiler for native programs: exact calls and times, samples, call graphs" \
	"$docs/callscope.md"
printf '%s\n' "$table" | while IFS='	' read -r cmd summary; do
	page "callscope-$cmd" "$summary" "$docs/$cmd.md"
done
