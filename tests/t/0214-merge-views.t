#!/bin/sh
# Every view reads a sum, and shows what the same view of its runs shows
# added up: report, tree, graph, the folded, callgrind, gmon and pprof
# exports, diff and the HTML page, for a sum of two count-mode runs and a
# traced one; the .prf export reads back as the sum's report.
. "$(dirname "$0")/lib.sh"

plan 11
build_prog export_work work -O2 -pg -fno-inline -fno-optimize-sibling-calls
for n in 1 2; do
	limited "$CS" record --mode=count -o c$n.data -- ./work $n > /dev/null 2>&1
done
limited "$CS" record -o t.data -- ./work 2 > /dev/null 2>&1
RUNS="c1.data c2.data t.data"
"$CS" merge -o sum.data $RUNS 2> /dev/null
ok $? "two count-mode runs and a traced one sum into one file"

# added VIEW: VIEW (a command printing "KEY VALUE" lines) of each run,
# values added per key, against the same view of the sum
added() {
	for f in $RUNS; do "$@" "$f"; done | awk '{ n[$1] += $2 } END { for (k in n) print k, n[k] }' | sort > want.txt
	"$@" sum.data | awk '{ n[$1] += $2 } END { for (k in n) print k, n[k] }' | sort > got.txt
	if cmp -s want.txt got.txt && [ -s got.txt ]; then echo "same $(wc -l < got.txt | tr -d ' ')"; else
		diff want.txt got.txt | head -5 | sed 's/^/# /' >&2; echo differ; fi
}
flat() { "$CS" report -i "$1" --json | jq -r '.functions[] | "\(.name):calls \(.calls)\n\(.name):self \(.self_ns)"'; }
is "$(added flat | cut -d' ' -f1)" same "report: each function's calls and self time are the runs' added up"

paths() { "$CS" tree -i "$1" --json |
	jq -r 'def walk_(p): (p + "/" + .name) as $q | "\($q):calls \(.calls)", "\($q):total \(.total_ns)",
		(.children[] | walk_($q)); .tree.children[] | walk_("")'; }
is "$(added paths | cut -d' ' -f1)" same "tree: each call path's calls and total time are the runs' added up"

arcs() { "$CS" graph -i "$1" --json | jq -r '.arcs[] | "\(.caller)>\(.callee) \(.count)"'; }
is "$(added arcs | cut -d' ' -f1)" same "graph: each arc's count is the runs' added up"

folded() { "$CS" export -i "$1" -f folded --value="$2" -o - | awk '{ v = $NF; $NF = ""; sub(/ $/, ""); gsub(/ /, "_"); print $0, v }'; }
fcalls() { folded "$1" calls; }
fself() { folded "$1" self; }
is "$(added fcalls | cut -d' ' -f1) $(added fself | cut -d' ' -f1)" "same same" \
	"export folded: each stack's calls and self time are the runs' added up"

# callgrind: calls= lines under their fn and cfn (names compressed as (id))
cg() {
	"$CS" export -i "$1" -f callgrind -o cg.out > /dev/null &&
		awk '/^fn=/ { sub(/^fn=/, ""); if (match($0, /^\([0-9]+\) /)) { id = substr($0, 1, RLENGTH - 1); nm[id] = substr($0, RLENGTH + 1) }
				else if (!($0 in nm)) nm[$0] = $0; fn = ($0 in nm) ? nm[$0] : $0; next }
			/^cfn=/ { sub(/^cfn=/, ""); if (match($0, /^\([0-9]+\) /)) { id = substr($0, 1, RLENGTH - 1); nm[id] = substr($0, RLENGTH + 1); cf = nm[id] }
				else cf = ($0 in nm) ? nm[$0] : $0; next }
			/^calls=/ { split($0, a, /[= ]/); print fn ">" cf, a[2] }' cg.out
}
is "$(added cg | cut -d' ' -f1)" same "export callgrind: each call's count is the runs' added up"

# (a call into a library keeps the address it had in its run, which gprof
# cannot name: only the program's own arcs are compared)
gm() { "$CS" export -i "$1" -f gmon -o gm.out 2> /dev/null > /dev/null &&
	perl "$ROOT/tests/t/gmon_arcs.pl" gm.out | awk 'length($2) < 9 { print $1 ">" $2, $3 }'; }
is "$(added gm | cut -d' ' -f1)" same "export gmon: each of the program's arcs counts the runs' calls added up"

"$CS" diff --json c1.data sum.data > d.json
want=$(for f in c2.data t.data; do "$CS" report -i "$f" --json; done |
	jq -s -r '[.[].functions[]] | group_by(.name) | map("\(.[0].name) \(map(.calls) | add)") | .[]' | sort)
got=$(jq -r '.functions[] | select(.calls_delta != 0) | "\(.name) \(.calls_delta)"' d.json | sort)
is "$got" "$want" "diff of a run and the sum: each function's change in calls is the other runs' calls"

"$CS" html -i sum.data -o sum.html > /dev/null
is "$(perl "$ROOT/tests/html/decode.pl" sum.html | jq -r '.functions[] | select(.listed == 1) | "\(.name) \(.calls) \(.self_ns)"' | sort)" \
	"$("$CS" report -i sum.data --json | jq -r '.functions[] | "\(.name) \(.calls) \(.self_ns)"' | sort)" \
	"html: the page's functions are the sum's report"

"$CS" export -i sum.data -f prf -o sum.prf > /dev/null
is "$("$CS" report -i sum.prf --json | jq -r '.functions[] | "\(.name) \(.calls)"' | sort)" \
	"$("$CS" report -i sum.data --json | jq -r '.functions[] | "\(.name) \(.calls)"' | sort)" \
	"export prf: read back, the same calls as the sum"

if command -v go > /dev/null; then
	export HOME="$WORK" GOCACHE="$WORK/gocache" GOFLAGS=-mod=mod
	for f in $RUNS sum.data; do "$CS" export -i "$f" -f pprof -o "${f%.data}.pb.gz" > /dev/null; done
	top() { limited go tool pprof -sample_index=calls -nodefraction=0 -top "$@" 2> /dev/null |
		awk '$2 ~ /%$/ && $NF != "" { print $NF, $1 }' | sort; }
	want=$(top c1.pb.gz c2.pb.gz t.pb.gz)
	got=$(top sum.pb.gz)
	is "$(test -n "$got" && test "$got" = "$want" && echo same)" same \
		"go tool pprof -top of the sum's export equals it of the runs' exports together"
else
	skip "go (golang-go) is not installed"
fi
done_testing
