#!/bin/sh
# The HTML report in a real browser: Debian's headless Chromium driven by
# playwright-core (tests/html/browser.js): no console error and no request
# outside the file, the fixture's frames where report --json puts them,
# zoom and Back, search, the top table equal to report --json, a 10 000-deep
# recursion, hostile names shown as text, keyboard-only use, a golden
# screenshot, a diff of a run against itself; focus, hide, merge and
# collapsed recursion, icicle, the metric switch, search next/previous,
# sorting, the sandwich, virtual rows, counter columns, a sampled run with
# its source view, lanes per thread, OBJECT:NAME search, and the tables as
# the accessibility tree gives them to a screen reader.  Installs what it needs
# (scripts/install-deps.sh, then npm ci) and skips, saying why, only where
# that cannot be done.
. "$(dirname "$0")/lib.sh"

HTML="$ROOT/tests/html"
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
skip_all() { echo "1..0 # SKIP $1"; exit 0; }

# A fresh machine gets what is missing (Debian's chromium, nodejs, npm)
# from the project's own script; where it cannot install (no root, no
# network), the checks below skip and say why.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1 || [ ! -x "$CHROMIUM" ]; then
	echo "# installing the browser's packages with scripts/install-deps.sh"
	LIMIT=900 limited "$ROOT/scripts/install-deps.sh" >deps.log 2>&1 ||
		echo "# scripts/install-deps.sh failed: $(tail -n 1 deps.log)"
fi
command -v node >/dev/null 2>&1 || skip_all "node is not installed (Debian package nodejs)"
command -v npm >/dev/null 2>&1 || skip_all "npm is not installed"
[ -x "$CHROMIUM" ] || skip_all "no Chromium at $CHROMIUM (Debian package chromium)"
# playwright-core from the npm registry, as tests/html/package-lock.json pins it
if ! (cd "$HTML" && node -e "require('playwright-core')") >/dev/null 2>&1; then
	(cd "$HTML" && limited npm ci --no-audit --no-fund --loglevel=error) >npm.log 2>&1 ||
		skip_all "cannot install playwright-core with npm ci: $(tail -n 1 npm.log)"
fi

flags=$HOOK_FLAGS_CYG
# shellcheck disable=SC2086
build_prog html_fixture fixture -O0 $flags
# shellcheck disable=SC2086
build_prog html_deep deep -O0 $flags
# A binary whose name is markup, stripped: its functions are named after it.
hostile='<img src=x onerror=alert(1)>'
cp fixture "$hostile" && strip "$hostile"

limited "$CS" record --no-libcall -o fixture.data -- ./fixture >/dev/null 2>&1
ok $? "fixture recorded"
"$CS" report -i fixture.data --json > fixture.json &&
	"$CS" html -i fixture.data -o fixture.html >/dev/null
ok $? "fixture: html written"
"$CS" html -i fixture.data --base fixture.data -o diff.html >/dev/null
ok $? "diff of the fixture against itself written"
limited "$CS" record -o deep.data -- ./deep 10000 >/dev/null 2>&1 &&
	"$CS" html -i deep.data -o deep.html >/dev/null
ok $? "10 000-deep recursion recorded and written"
limited "$CS" record -o hostile.data -- "./$hostile" >/dev/null 2>&1 &&
	"$CS" report -i hostile.data --json > hostile.json &&
	"$CS" html -i hostile.data -o hostile.html >/dev/null
ok $? "hostile-named binary recorded and written"

# shellcheck disable=SC2086
build_prog counters ct -O0 $flags
limited "$CS" record -e page-faults,context-switches -o counters.data -- ./ct 200 >/dev/null 2>&1 &&
	"$CS" report -i counters.data --json > counters.json &&
	"$CS" html -i counters.data -o counters.html >/dev/null
ok $? "a run with two counters recorded and written"
build_prog sample_hot hot -O2
limited "$CS" record -o sampled.data -- ./hot flat 300 >/dev/null 2>&1 &&
	"$CS" report -i sampled.data --json > sampled.json &&
	"$CS" report -i sampled.data --lines --json > sampled-lines.json &&
	"$CS" html -i sampled.data -o sampled.html >/dev/null &&
	"$CS" html -i sampled.data --base sampled.data -o sampled-diff.html >/dev/null
ok $? "a sampled run (no hooks) recorded and written, and diffed against itself"

# shellcheck disable=SC2086
build_prog threads threads -O0 $flags
limited "$CS" record -o threads.data -- ./threads >/dev/null 2>&1 &&
	"$CS" info -i threads.data --json > threads-info.json &&
	"$CS" html -i threads.data -o threads.html >/dev/null
ok $? "a run of five threads recorded and written"

# two functions named twin, in the program and in its library
# shellcheck disable=SC2016,SC2086
cc -g -O0 $flags -shared -fPIC -o libtwin.so "$ROOT/tests/progs/html_twin_lib.c" &&
	cc -g -O0 $flags -o twin "$ROOT/tests/progs/html_twin.c" -L. -ltwin -Wl,-rpath,'$ORIGIN' &&
	limited "$CS" record -o twin.data -- ./twin >/dev/null 2>&1 &&
	"$CS" tree -i twin.data --focus libtwin.so:twin --json > twin-focus.json &&
	"$CS" html -i twin.data -o twin.html >/dev/null
ok $? "a program and its library, each with a twin(), recorded and written"

# a sampled program whose hot source lines carry markup
sed '21,30s|$| /* </script><img src=x onerror=window.__pwned=1> */|' "$ROOT/tests/progs/sample_hot.c" > marked.c &&
	cc -g -O2 -o marked marked.c &&
	limited "$CS" record -o marked.data -- ./marked flat 300 >/dev/null 2>&1 &&
	"$CS" html -i marked.data -o marked.html >/dev/null
ok $? "a program with markup in its hot source lines sampled and written"

# error paths that never ran, for html --static
# shellcheck disable=SC2086
build_prog error_paths errors -O0 $flags
limited "$CS" record -o static.data -- ./errors >/dev/null 2>&1 &&
	"$CS" html -i static.data --static -o static.html >/dev/null
ok $? "a program whose error paths never ran recorded and written with --static"

if [ "$TEST_FAILED" -ne 0 ]; then
	plan "$TEST_COUNT"
	done_testing
fi
LIMIT=240 limited env CHROMIUM="$CHROMIUM" node "$HTML/browser.js" "$WORK" "$TEST_COUNT" > browser.tap 2>browser.err
cat browser.tap
[ -s browser.err ] && sed 's/^/# /' browser.err
counted=$(sed -n 's/^# counted \([0-9]*\) failed \([0-9]*\)$/\1 \2/p' browser.tap)
if [ -z "$counted" ]; then
	ok 1 "the browser tests ran to their end"
else
	set -- $counted
	TEST_FAILED=$((TEST_FAILED + $2))
	TEST_COUNT=$1
fi
# keep what a failure needs to be understood
if [ "$TEST_FAILED" -ne 0 ]; then
	keep=${TMPDIR:-/tmp}/callscope-0400-failed
	rm -rf "$keep" && cp -r "$WORK" "$keep" && echo "# pages and screenshots kept in $keep"
fi
plan "$TEST_COUNT"
done_testing
