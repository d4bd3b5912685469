#!/bin/sh
# callscope html without a browser: the page is self-contained (no URL, no
# external resource), the same bytes twice, under a strict
# Content-Security-Policy whose hashes match the inline script and style,
# names escaped; its data (read back by tests/html/decode.pl) holds the
# numbers of report --json (traced, sampled or summed with --mode=count);
# budgets cut what they say; bad input fails with one line.
. "$(dirname "$0")/lib.sh"

DECODE="$ROOT/tests/html/decode.pl"
plan 41

build_prog basic basic -O0 $HOOK_FLAGS_CYG
limited "$CS" record -o b.data -- ./basic 18 >/dev/null 2>&1
"$CS" html -i b.data -o one.html > out.txt
ok $? "html writes a page"
grep -q "^wrote 'one.html': [0-9]* bytes" out.txt
ok $? "and says what it wrote"
"$CS" html -i b.data -o two.html >/dev/null
cmp -s one.html two.html
ok $? "two runs give the same bytes"
"$CS" html -i b.data -o - > three.html
cmp -s one.html three.html
ok $? "-o - writes the same page to stdout"

! grep -Eqi 'https?:|//[a-z0-9.-]+\.[a-z]{2,}/' one.html
ok $? "no URL anywhere in the page"
! grep -Eqi '<(link|img|iframe|object|embed)[ >]|<script[^>]* src=' one.html
ok $? "no external resource: no link, img, iframe or script src"
grep -q "getContext('2d')" one.html && ! grep -qi 'webgl' one.html
ok $? "drawn with Canvas 2D, no WebGL"
csp=$(sed -n 's/.*http-equiv="Content-Security-Policy" content="\([^"]*\)".*/\1/p' one.html)
case "$csp" in
"default-src 'none'; script-src 'sha256-"*) ok 0 "CSP: default-src 'none', scripts by hash" ;;
*) ok 1 "CSP: default-src 'none', scripts by hash"; echo "# got: $csp" ;;
esac
# the hash of what is between <script> and </script> (and <style>), as CSP computes it
hashes=$(perl -MDigest::SHA=sha256_base64 -0777 -ne '
	m{<script>(.*?)</script>}s or die; my $s = sha256_base64($1) . "=";
	m{<style>(.*?)</style>}s or die; my $c = sha256_base64($1) . "=";
	print "$s $c\n"' one.html)
set -- $hashes
echo "$csp" | grep -qF "script-src 'sha256-$1'" && echo "$csp" | grep -qF "style-src 'sha256-$2'"
ok $? "CSP: the hashes are those of the inline script and style"
[ "$(grep -c '<script' one.html)" -eq 2 ] && grep -q '<script type="application/octet-stream" id="cs-data">' one.html
ok $? "one inline script; the data is an inert block"

perl "$DECODE" one.html > data.json
ok $? "the data block decodes (raw deflate, then the container)"
"$CS" report -i b.data --json > report.json
jq -c '[.functions[] | {name, calls, self_ns, total_ns, min_ns, avg_ns, max_ns}]' report.json > want.json
jq -c '[.functions[] | select(.listed == 1)] | sort_by(.rank) |
	[.[] | {name, calls, self_ns, total_ns, min_ns, avg_ns, max_ns}]' data.json > got.json
cmp -s want.json got.json
ok $? "the functions in the page equal report --json, in its order"
[ "$(jq '.node_self_ns' data.json)" = "$(jq '[.functions[].self_ns] | add' report.json)" ]
ok $? "the call paths' self times add up to the flat profile's"
is "$(jq -r '.deflate' data.json)" compressed "the data is compressed"

"$CS" html -i b.data -o stored.html --no-compress >/dev/null &&
	[ "$(perl "$DECODE" stored.html | jq -r '.deflate')" = stored ] &&
	[ "$(stat -c %s stored.html)" -gt "$(stat -c %s one.html)" ]
ok $? "--no-compress: deflate stored blocks, a bigger page"

"$CS" html -i b.data -o short.html --timeline-calls 100 >/dev/null
calls=$(jq '.calls' report.json)
kept=$(perl "$DECODE" short.html | jq '.meta.cuts.calls_kept')
# calls as long as the 100th are kept all or none: at most 100
[ "$kept" -le 100 ] && [ "$kept" -ge 50 ] && grep -q "the timeline shows $kept of $calls calls" short.html
ok $? "--timeline-calls: the longest calls kept, at most 100, the cut counted in the banner"
"$CS" html -i b.data -o cut.html --max-nodes 5 >/dev/null
perl "$DECODE" cut.html > cut.json
cut=$(jq '.cut_paths' cut.json)
[ "$cut" -gt 0 ] && [ "$cut" -eq "$(jq '.meta.cuts.nodes_cut' cut.json)" ] &&
	grep -q "$cut call paths of less than" cut.html &&
	[ "$(jq '.node_self_ns' cut.json)" = "$(jq '.node_self_ns' data.json)" ]
ok $? "--max-nodes: cut call paths folded into counted nodes, no time lost"

"$CS" html -i b.data --base b.data -o diff.html >/dev/null &&
	perl "$DECODE" diff.html > diff.json
[ "$(jq '[.functions[] | select(.self_ns != .base_self_ns or .total_ns != .base_total_ns or .calls != .base_calls)] | length' diff.json)" -eq 0 ] &&
	[ "$(jq '.functions | length' diff.json)" -gt 3 ]
ok $? "--base with itself: every function's change is zero"

# A diff matches functions by name as the reports give it: a program's
# static twin() and its library's are named apart ("twin [twin]", "twin
# [libtwin.so]"), so each is matched with itself, its numbers whole.
cc -g -O0 $HOOK_FLAGS_CYG -shared -fPIC -o libtwin.so "$PROGS/html_twin_lib.c" &&
	cc -g -O0 $HOOK_FLAGS_CYG -o twin "$PROGS/html_twin.c" -L. -ltwin -Wl,-rpath,'$ORIGIN'
limited "$CS" record -o t.data -- ./twin >/dev/null 2>&1
"$CS" report -i t.data --json > t.json
"$CS" html -i t.data --base t.data -o t.html >/dev/null && perl "$DECODE" t.html > td.json
twins() { jq -c '[.functions[] | select(.name | startswith("twin [")) | [.name, .self_ns]] | sort' "$1"; }
[ "$(twins t.json | jq length)" -eq 2 ] &&
	[ "$(jq '.node_self_ns' td.json)" = "$(jq '[.functions[].self_ns] | add' t.json)" ] &&
	[ "$(twins t.json)" = "$(twins td.json)" ]
ok $? "--base: two functions of one name stay two in the diff, each with its own numbers"

# counters (record -e; software ones work everywhere)
build_prog counters ct -O0 $HOOK_FLAGS_CYG
limited "$CS" record -e page-faults,context-switches -o c.data -- ./ct 200 >/dev/null 2>&1
"$CS" report -i c.data --json > c.json
"$CS" html -i c.data -o c.html >/dev/null && perl "$DECODE" c.html > cd.json
is "$(jq -c '[.meta.metrics[].label]' cd.json)" '["time","calls","page-faults","context-switches"]' \
	"counters: offered as metrics under their names"
jq -c '[.functions[] | {name, c1, c1_total, c2, c2_total}]' c.json > want.json
jq -c '[.functions[] | select(.listed == 1)] | sort_by(.rank) | [.[] | {name, c1, c1_total, c2, c2_total}]' cd.json > got.json
cmp -s want.json got.json && [ "$(jq '.node_self_c1' cd.json)" = "$(jq '[.functions[].c1] | add' c.json)" ]
ok $? "counters: self and +children equal report --json; the call paths add up"

# a sampled run (a binary without hooks): the call paths of its stacks,
# weighed by samples
build_prog sample_hot hot -O2
limited "$CS" record -o s.data -- ./hot flat 300 >/dev/null 2>&1
"$CS" report -i s.data --json > s.json
"$CS" html -i s.data -o s.html >/dev/null && perl "$DECODE" s.html > sd.json
is "$(jq -r '.meta.metrics[0].id' sd.json)" samples "samples: the page opens weighed by samples"
"$CS" html -i s.data -o s-again.html >/dev/null && cmp -s s.html s-again.html
ok $? "samples: the same bytes twice, source text and all"
jq -c '[.functions[] | {name, self_samples, samples}]' s.json > want.json
jq -c '[.functions[] | select(.listed == 1)] | sort_by(.rank) | [.[] | {name, self_samples, samples}]' \
	sd.json > got.json
cmp -s want.json got.json && [ "$(jq '.node_self_samples' sd.json)" = "$(jq '.samples' s.json)" ] &&
	[ "$(jq '.nodes' sd.json)" -ge 3 ]
ok $? "samples: each function's samples equal report --json; the call paths hold every sample"
clock="CPU time, user and system"
[ "$(jq -r .sample_cpu_time s.json)" = user ] && clock="user CPU time"
grep -q "$(jq '.samples' s.json) samples of $clock; lost samples: 0; outside any known object: $(jq '.outside_samples' s.json)" s.html
ok $? "samples: the banner counts them, the lost ones too"

"$CS" html -i s.data -o scut.html --max-nodes 2 >/dev/null && perl "$DECODE" scut.html > scut.json
cut=$(jq '.cut_paths' scut.json)
[ "$cut" -gt 0 ] && [ "$(jq -r '.meta.cuts.min_total_unit' scut.json)" = samples ] &&
	[ "$(jq '.node_self_samples' scut.json)" = "$(jq '.samples' s.json)" ] &&
	grep -q "$cut call paths\? of less than $(jq '.meta.cuts.min_total_ns' scut.json) samples\? each" scut.html
ok $? "samples: --max-nodes cuts a sampled run's paths by samples, every sample kept, the banner in samples"

# a diff of sampled runs weighs by samples; against itself every change is 0
"$CS" html -i s.data --base s.data -o sdiff.html >/dev/null && perl "$DECODE" sdiff.html > sdiff.json
[ "$(jq -r '.meta.metrics[0].id' sdiff.json)" = samples ] &&
	[ "$(jq '[.functions[] | select(.self_samples != .base_self_samples or .samples != .base_samples)] | length' sdiff.json)" -eq 0 ] &&
	[ "$(jq '[.functions[] | select(.samples > 0)] | length' sdiff.json)" -ge 3 ] &&
	[ "$(jq '.node_self_samples' sdiff.json)" = "$(jq '.samples' s.json)" ] &&
	[ "$(jq '.node_base_self_samples' sdiff.json)" = "$(jq '.samples' s.json)" ]
ok $? "samples: a sampled run against itself: both sides hold every sample, every change 0"

# the source view: samples per line as report --lines, the hot lines' text
"$CS" report -i s.data --lines --json > sl.json
jq -c '[.lines[] | {file, line, samples}] | group_by([.file, .line]) |
	map({file: .[0].file, line: .[0].line, samples: (map(.samples) | add)}) | sort_by(-.samples, .file, .line)' \
	sl.json > want.json
jq -c '[.lines[] | {file, line, samples}] | sort_by(-.samples, .file, .line)' sd.json > got.json
cmp -s want.json got.json && [ "$(jq '.lines | length' sd.json)" -ge 2 ]
ok $? "source: samples per line equal report --lines --json"
top=$(jq -r '.lines[0].line' sd.json)
file=$(jq -r '.lines[0].file' sd.json)
[ "$(jq -r --argjson l "$top" --arg f "$file" '.source[] | select(.line == $l and .file == $f) | .text' sd.json)" = \
	"$(sed -n "${top}p" "$file")" ] &&
	[ "$(jq --argjson l "$top" --arg f "$file" '[.source[] | select(.file == $f and .line >= $l - 3 and .line <= $l + 3)] | length' sd.json)" -eq 7 ]
ok $? "source: the hottest line's text is the file's, three lines each side"
cp "$ROOT/tests/progs/sample_hot.c" gone.c && cc -g -O2 -o gone gone.c && rm gone.c
limited "$CS" record -o g.data -- ./gone flat 300 >/dev/null 2>&1
"$CS" html -i g.data -o g.html >/dev/null && perl "$DECODE" g.html > gd.json
# every sample with a line keeps it (a sample in libc or the loader has
# none, in the page as in report --lines)
"$CS" report -i g.data --lines --json > gl.json
# (a sample may land in other code whose source is there, the runtime's:
# only gone.c's text must be missing)
[ "$(jq '.meta.cuts.unreadable_sources' gd.json)" -ge 1 ] &&
	[ "$(jq '[.source[] | select(.file | endswith("/gone.c"))] | length' gd.json)" -eq 0 ] &&
	[ "$(jq '[.lines[] | select(.file | endswith("/gone.c")) | .samples] | add // 0' gd.json)" -gt 0 ] &&
	[ "$(jq '[.lines[].samples] | add' gd.json)" = "$(jq '[.lines[].samples] | add' gl.json)" ] &&
	[ "$(jq '[.lines[].samples] | add' gd.json)" -ge "$(( $(jq '.meta.samples' gd.json) * 9 / 10 ))" ]
st=$?
ok $st "source: a file gone since the build is counted as unreadable; its lines keep their samples"
[ $st -eq 0 ] || jq -c '{cuts: .meta.cuts, samples: .meta.samples, lines, source}' gd.json | sed 's/^/# /' >&2

# a traced run's source view: each function where it begins, its self time
jq -c '[.functions[] | select(.self_ns > 0) | {function: .name, self_ns}] | sort_by(-.self_ns, .function)' report.json > want.json
jq -c '[.lines[] | {function, self_ns}] | sort_by(-.self_ns, .function)' data.json > got.json
top=$(jq -r '.lines[0].line' data.json)
file=$(jq -r '.lines[0].file' data.json)
cmp -s want.json got.json && [ "$(jq -r '.meta.cuts.lines_unit' data.json)" = ns ] &&
	[ "$(jq -r --argjson l "$top" --arg f "$file" '.source[] | select(.line == $l and .file == $f) | .text' data.json)" = \
	  "$(sed -n "${top}p" "$file")" ]
ok $? "source: a traced run shows each function's self time where it begins, with its text"

# --mode=count: the paths the program summed, no events
limited "$CS" record --mode=count -o n.data -- ./basic 18 >/dev/null 2>&1
"$CS" report -i n.data --json > n.json
"$CS" html -i n.data -o n.html >/dev/null && perl "$DECODE" n.html > nd.json
jq -c '[.functions[] | {name, calls, self_ns, total_ns, min_ns, max_ns}]' n.json > want.json
jq -c '[.functions[] | select(.listed == 1)] | sort_by(.rank) | [.[] | {name, calls, self_ns, total_ns, min_ns, max_ns}]' \
	nd.json > got.json
cmp -s want.json got.json && [ "$(jq '.node_self_ns' nd.json)" = "$(jq '[.functions[].self_ns] | add' n.json)" ] &&
	[ "$(jq '.nodes' nd.json)" -ge 4 ]
ok $? "--mode=count: the summed call paths add up to report --json's numbers, min and max unknown as there"

# the banner counts what the flight recorder's ring overwrote, exactly
limited "$CS" record --mode=flight=64K -o f.data -- ./basic 22 >/dev/null 2>&1
over=$("$CS" info -i f.data --json | jq '.overwritten_events')
"$CS" html -i f.data -o f.html >/dev/null
[ "$over" -gt 0 ] && grep -q "flight recorder: $over older events were overwritten" f.html
ok $? "the banner says how many events the flight recorder overwrote ($over)"

# a binary named like markup, stripped: its functions are named after it
hostile='<img src=x onerror=alert(1)>'
cp basic "$hostile" && strip "$hostile"
limited "$CS" record -o h.data -- "./$hostile" >/dev/null 2>&1
"$CS" html -i h.data -o h.html >/dev/null
grep -qF '&lt;img src=x onerror=alert(1)&gt;+0x' h.html && ! grep -q '<img' h.html
ok $? "names are escaped in the markup"

"$CS" html -i missing.data -o x.html 2> err.txt
is "$?:$(head -c 11 err.txt)" "1:callscope: " "a missing recording: exit 1 and one line"
"$CS" html --max-size lots -i b.data 2> err.txt
is "$?" 2 "a bad --max-size is a usage error"
"$CS" html -i b.data -o no/such/dir/x.html 2> err.txt
[ $? -eq 1 ] && grep -q "cannot write 'no/such/dir/x.html'" err.txt
ok $? "an unwritable output: exit 1, the path named"
# --static: the page carries the calls in the code that never ran, the
# same arcs of count 0 as graph --static, tail calls marked
build_prog tail_errors te -O2 -pg
limited "$CS" record -o te.data -- ./te > /dev/null 2>&1
"$CS" html -i te.data --static -o te.html > /dev/null
"$CS" graph -i te.data --static --json | jq -c '[.arcs[] | select(.count == 0 and .caller != "<spontaneous>")
	| "\(.caller)>\(.callee):\(if .tail_call then 1 else 0 end)"] | sort' > want.json
perl "$DECODE" te.html | jq -c '[.static_arcs[] | "\(.caller)>\(.callee):\(.tail)"] | sort' > got.json
is "$(jq length got.json) $(cmp -s want.json got.json && echo same) $(jq -r 'map(select(startswith("check>") and endswith(":1"))) | length' got.json)" \
	"$(jq length want.json) same 2" "--static: the page carries graph --static's calls that never ran, check's two tail calls marked"
"$CS" html -i te.data -o plain.html > /dev/null
is "$(perl "$DECODE" plain.html | jq '.static_arcs // "none"')" '"none"' "without --static the page has none"
"$CS" html -i te.data --static --base te.data -o x.html > /dev/null 2> err.txt
is "$? $(wc -l < err.txt)" "2 1" "--static with --base: a usage error, one line"

(cd "$ROOT" && sh scripts/embed-html.sh --check)
ok $? "report/html_assets.c is up to date with report/html/"
done_testing
