#!/bin/sh
# The manual pages written from docs/: one per command of the CLI's table
# plus callscope(1); each renders through man -l with groff's every
# warning on (-ww) and none printed; each names every option its command's
# --help prints.
. "$(dirname "$0")/lib.sh"

command -v pandoc > /dev/null || { echo "1..0 # SKIP pandoc is needed for the manual pages"; exit 0; }
command -v man > /dev/null || { echo "1..0 # SKIP man (man-db) is needed to render the pages"; exit 0; }
plan 5

sh "$ROOT/scripts/man/manpages.sh" "$CS" man 2> gen.err
ok $? "the pages are written"

commands=$("$CS" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
expected=$( (echo callscope.1; for c in $commands; do echo "callscope-$c.1"; done) | sort)
is "$(ls man | sort)" "$expected" "callscope(1) and one page per command of 'callscope --help'"

warned=""
for page in man/*.1; do
	LC_ALL=C.UTF-8 MANWIDTH=80 MANROFFOPT=-ww man -l "$page" > "$page.txt" 2> warn.txt
	[ -s warn.txt ] && { warned="$warned $(basename "$page")"; sed 's/^/# /' warn.txt | head -5; }
	grep -q '^NAME' "$page.txt" && grep -q '^DESCRIPTION' "$page.txt" || warned="$warned $(basename "$page"):sections"
done
is "$warned" "" "man -l renders every page without a warning from groff -ww"

# Options are looked for in the page's source with the escapes taken out:
# the rendered text may hyphenate a long option at the end of a line.
missing=""
for c in "" $commands; do
	page=man/callscope${c:+-$c}.1
	sed 's/\\-/-/g; s/\\f\[[A-Z]*\]//g; s/\\f[A-Z]//g' "$page" > plain.txt
	for o in $("$CS" $c --help 2>&1 | grep -oE '(^|[][ ,|])--?[a-zA-Z][a-zA-Z0-9-]*' |
		sed 's/^[][ ,|]//' | sort -u); do
		grep -qE -- "(^|[^a-zA-Z0-9-])$o([^a-zA-Z0-9-]|\$)" plain.txt || missing="$missing ${c:-callscope}:$o"
	done
done
is "$missing" "" "every option a command's --help prints is in its page"

# A link to another command's page becomes a reference to its manual page.
grep -q 'callscope-live(1)' man/callscope-record.1.txt && grep -q 'callscope(1)' man/callscope-record.1.txt
ok $? "links between the docs become callscope-COMMAND(1) references"
done_testing
