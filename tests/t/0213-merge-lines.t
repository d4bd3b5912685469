#!/bin/sh
# A sum keeps its runs' samples per line and per instruction: report
# --lines, the page's source view and annotate of a sum equal those of
# its runs added up, and a
# tree of merges, in any order, writes the same bytes as one merge.  A
# sum of traced runs keeps each function's histogram of call durations
# (the runs' buckets added, shortest and longest kept).  A damaged record
# of the samples by PC is one warning, its samples left out; merge
# refuses such a sum.
. "$(dirname "$0")/lib.sh"

plan 10
build_prog sample_hot st -O2 -fno-omit-frame-pointer
for r in 1 2 3; do
	limited "$CS" record -o s$r.data -- ./st flat $((r * 100)) > /dev/null 2>&1
done
"$CS" merge -o all.data s1.data s2.data s3.data 2> /dev/null &&
	"$CS" merge -o ab.data s2.data s1.data 2> /dev/null &&
	"$CS" merge -o tree.data s3.data ab.data 2> /dev/null &&
	cmp -s all.data tree.data
ok $? "(b+a)+c and a+b+c are the same bytes"

# by_line: "file:line:function=samples" of JSON documents' .lines, added up
by_line() {
	jq -s -r '[.[].lines[]] | group_by([.file, .line, .function])
		| map("\(.[0].file):\(.[0].line):\(.[0].function)=\(map(.samples) | add)") | .[]'
}
# lines FILES...: FILES' report --lines, added up
lines() { for f in "$@"; do "$CS" report -i "$f" --lines --json; done | by_line; }
lines s1.data s2.data s3.data > want.txt
lines all.data > got.txt
is "$(wc -l < want.txt | tr -d ' ') $(cmp -s want.txt got.txt && echo same)" \
	"$(wc -l < want.txt | tr -d ' ') same" "report --lines of the sum is the runs' lines added up"
is "$("$CS" report -i all.data --lines --json | jq '[.lines[].samples] | add')" \
	"$("$CS" report -i all.data --json | jq '.samples')" "... and they hold every sample of the sum"

# the page's source view: each line's samples, the runs' added up
pagelines() {
	for f in "$@"; do "$CS" html -i "$f" -o page.html > /dev/null && perl "$ROOT/tests/html/decode.pl" page.html; done |
		by_line
}
pagelines s1.data s2.data s3.data > want.txt
pagelines all.data > got.txt
is "$(wc -l < got.txt | tr -d ' ') $(cmp -s want.txt got.txt && echo same)" \
	"$(wc -l < want.txt | tr -d ' ') same" "html of the sum: the source view's lines are the runs' added up"

# insns FILES...: "address=samples" of hot's instructions in FILES' annotate, added up
insns() {
	for f in "$@"; do "$CS" annotate -i "$f" hot; done |
		awk '/^#/ { on = /^# instructions/; next }
			on && NF >= 4 { i = ($1 == ">") ? 2 : 1; if ($i ~ /^[0-9]+$/) n[$(i + 2)] += $i }
			END { for (a in n) print a "=" n[a] }' | sort
}
insns s1.data s2.data s3.data > want.txt
insns all.data > got.txt
is "$(grep -vc '=0$' got.txt) $(cmp -s want.txt got.txt && echo same)" \
	"$(grep -vc '=0$' want.txt) same" "annotate of the sum: each instruction's samples are the runs' added up"

build_prog export_work work -O2 -pg -fno-inline -fno-optimize-sibling-calls
for n in 1 2; do
	limited "$CS" record -o t$n.data -- ./work $n > /dev/null 2>&1
done
"$CS" merge -o traced.data t1.data t2.data 2> /dev/null
hist() { "$CS" report -i "$1" --histogram leaf --json; }
# buckets: "from:calls" of the used buckets of the histograms on stdin,
# added up.  Matched by where they start: each histogram's list begins at
# its first used bucket, which differs between runs when one has no call
# that its hooks' cost brought down to 0 ns.
buckets() {
	jq -s -c '[.[].buckets[] | select(.count > 0)] | group_by(.min_ns)
		| map("\(.[0].min_ns):\(map(.count) | add)")'
}
want=$(for f in t1 t2; do hist $f.data; done | buckets)
got=$(hist traced.data | buckets)
is "$got" "$want" "a sum of traced runs: leaf's histogram is the runs' buckets added up"
mm() { hist "$1" | jq -r '"\(.calls) \(.min_ns) \(.max_ns)"'; }
calls=$(for f in t1 t2; do mm $f.data | cut -d' ' -f1; done | paste -sd+ - | bc)
min=$(for f in t1 t2; do mm $f.data | cut -d' ' -f2; done | sort -n | head -1)
max=$(for f in t1 t2; do mm $f.data | cut -d' ' -f3; done | sort -n | tail -1)
is "$(mm traced.data)" "$calls $min $max" "... with the runs' calls, shortest and longest call"

limited "$CS" record --mode=count -o c.data -- ./work 1 > /dev/null 2>&1
"$CS" merge -o count.data c.data c.data 2> /dev/null
"$CS" info -i count.data > /dev/null
is "$(perl -e 'local $/; $_ = <STDIN>; my $p = 32; my $n = 0;
	while ($p + 16 <= length) { my ($t, $f, $l) = unpack("V V Q<", substr($_, $p, 16));
		$n++ if $t == 9; $p += 16 + $l } print $n' < count.data)" 0 \
	"a sum of count-mode runs has no samples by PC: its bytes are as before"

cp all.data bad.data
perl "$ROOT/tests/t/session_forge.pl" --section=9 bad.data 8=999999
"$CS" report -i bad.data --lines > bad.txt 2> err.txt
is "$? $(wc -l < err.txt) $(grep -c 'samples by PC name call path 999999' err.txt)" "3 1 1" \
	"a record naming a path the sum does not hold: one warning, the damage said in the exit status"
"$CS" merge -o again.data bad.data s1.data 2> err.txt
is "$? $(wc -l < err.txt) $(test -e again.data || echo none)" "1 1 none" \
	"merge refuses that sum with one line: $(cat err.txt)"
done_testing
