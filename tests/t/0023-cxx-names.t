#!/bin/sh
# C++ names, demangled everywhere a person reads them: report, graph,
# tree, replay, annotate, diff, the HTML page, and the exports in the form
# their readers show (callgrind, pprof with the linkage name beside, folded
# stacks); --no-demangle shows the symbol table's names; symspecs, --focus,
# --filter, --histogram and record --start-at take the C++ names, with or
# without the parameter list, and the linkage names.  The counts of
# tests/progs/cxx_names.cc are known (the program counts its sort's
# comparisons itself); its exceptions are tagged as exceptions, and its
# threads' start routines are their roots.
. "$(dirname "$0")/lib.sh"

if ! command -v g++ > /dev/null 2>&1; then
	echo "1..0 # skip g++ is not installed"
	exit 0
fi

SQUARE='geometry::Square::area() const'
LAMBDA_PREFIX='sort_descending(std::vector<int, std::allocator<int> >&)::{lambda(int, int)#1}::operator()'

# count R.JSON NAME: calls of the functions called NAME
count() { jq -r --arg f "$2" '[.functions[] | select(.name == $f) | .calls] | add // 0' "$1"; }
# no_mangled FILE: how many lines hold a linkage name
no_mangled() { grep -c '_Z[0-9A-Z]' "$1"; }

plan 44
for kind in PG FENTRY; do
	eval flags=\$HOOK_FLAGS_$kind
	# shellcheck disable=SC2086
	g++ -g -O2 $flags -o cxx "$PROGS/cxx_names.cc" -lpthread
	expected=$(./cxx)
	out=$(limited "$CS" record -o c.data -- ./cxx 2> err.txt)
	is "$?:$out" "0:$expected" "$kind: the program runs as it does alone"
	compares=$(echo "$out" | sed -n 's/^compares //p')

	"$CS" report -i c.data --json > r.json
	got=""
	for f in "$SQUARE" 'geometry::Circle::area() const' \
		'geometry::operator+(geometry::Vec, geometry::Vec)' \
		'int sum_all<int>(std::vector<int, std::allocator<int> > const&)' \
		'double sum_all<double>(std::vector<double, std::allocator<double> > const&)' \
		'label[abi:cxx11](int)' 'checked(int)' 'worker::spin(int)' 'raw_thread(void*)'; do
		got="$got $(count r.json "$f")"
	done
	lambda=$(jq -r --arg p "$LAMBDA_PREFIX" \
		'[.functions[] | select(.name | startswith($p)) | .calls] | add // 0' r.json)
	is "$got $lambda" " 40 30 10 10 10 5 10 2 1 $compares" \
		"$kind: virtual calls, operators, templates, [abi:cxx11], the sort's lambda: exact counts by demangled name"

	"$CS" report -i c.data > r.txt
	"$CS" graph -i c.data > g.txt
	"$CS" tree -i c.data > t.txt
	"$CS" replay -i c.data > p.txt
	is "$(no_mangled r.txt) $(no_mangled g.txt) $(no_mangled t.txt) $(no_mangled p.txt)" "0 0 0 0" \
		"$kind: report, graph, tree and replay show no linkage name"
	# the report may mark a line after the name ("[self time within ...]")
	is "$(grep -c "  $SQUARE\( \[[^]]*\]\)*\$" r.txt) $(grep -c "^ *40 *$SQUARE\$" p.txt | sed 's/^0$/x/')" \
		"1 x" "$kind: the report lists the method as C++ names it"
	"$CS" graph -i c.data --json > g.json
	is "$(jq -r --arg f "$SQUARE" '.arcs[] | select(.callee == $f) | "\(.caller) \(.count)"' g.json) $(grep -c "^ .*  *$SQUARE\$" t.txt)" \
		"main 40 1" "$kind: the graph's arcs and the tree's paths name it so"
	is "$(grep -c "  $SQUARE\$" p.txt)" 40 "$kind: replay shows each of its 40 calls by that name"

	"$CS" report -i c.data --no-demangle > rn.txt
	"$CS" graph -i c.data --no-demangle > gn.txt
	"$CS" tree -i c.data --no-demangle > tn.txt
	"$CS" replay -i c.data --no-demangle > pn.txt
	is "$(grep -c '_ZNK8geometry6Square4areaEv\( \[[^]]*\]\)*$' rn.txt) $(grep -c "$SQUARE" rn.txt gn.txt tn.txt pn.txt | paste -sd' ')" \
		"1 rn.txt:0 gn.txt:0 tn.txt:0 pn.txt:0" "$kind: --no-demangle shows the symbol table's names"

	# symspecs: the name without its parameters, the whole name, the
	# linkage name, OBJECT:NAME
	sq() { "$CS" replay -i c.data --filter "$1" | grep -c "$SQUARE\$"; }
	is "$(sq geometry::Square::area) $(sq "$SQUARE") $(sq _ZNK8geometry6Square4areaEv) $(sq cxx:geometry::Square::area)" \
		"40 40 40 40" "$kind: replay --filter takes C++ names, linkage names and OBJECT:NAME"
	is "$("$CS" replay -i c.data --no-demangle --filter geometry::Square::area | grep -c '_ZNK8geometry6Square4areaEv$')" \
		40 "$kind: ... and C++ names still under --no-demangle"
	"$CS" tree -i c.data --focus 'sum_all<int>' > tf.txt
	is "$(sed -n 's/^ *100.00 *\([0-9]*\) .*  \(int sum_all.*\)$/\1 \2/p' tf.txt)" \
		"10 int sum_all<int>(std::vector<int, std::allocator<int> > const&)" \
		"$kind: tree --focus takes a template function's name"
	"$CS" report -i c.data --histogram 'geometry::Circle::area' > h.txt
	is "$(grep -c 'Circle::area() const' h.txt) $?" "1 0" "$kind: report --histogram takes a method's name"
	"$CS" replay -i c.data --filter 'no::such' > /dev/null 2> e.txt
	is "$(test $? -ne 0 && echo fails):$(wc -l < e.txt)" "fails:1" "$kind: an unknown C++ name fails with one line"

	# record --start-at with a C++ name: capture starts at the first
	# operator+, after round 0's four squares
	limited "$CS" record -o s.data --start-at='geometry::operator+' -- ./cxx > /dev/null 2>&1
	"$CS" report -i s.data --json > s.json
	is "$(count s.json 'geometry::operator+(geometry::Vec, geometry::Vec)') $(count s.json "$SQUARE")" "10 36" \
		"$kind: record --start-at takes a C++ name"

	# exports
	"$CS" export -i c.data --format=callgrind -o c.callgrind
	is "$(grep -c "fn=([0-9]*) $SQUARE\$" c.callgrind) $(no_mangled c.callgrind)" "1 0" \
		"$kind: the callgrind export names functions as callgrind does (demangled)"
	"$CS" export -i c.data --format=pprof -o c.pb.gz
	gunzip -c c.pb.gz > c.pb
	is "$(grep -c -a "$SQUARE" c.pb) $(grep -c -a '_ZNK8geometry6Square4areaEv' c.pb)" "1 1" \
		"$kind: pprof gets the C++ name and the linkage name as system_name"
	"$CS" export -i c.data --format=folded -o c.folded
	is "$(grep -c "^main;$SQUARE [0-9]*\$" c.folded)" 1 "$kind: folded stacks name the frames in C++"

	"$CS" html -i c.data --no-compress -o c.html > /dev/null
	is "$(grep -c "$SQUARE" c.html) $(grep -c '_ZNK8geometry6Square4areaEv' c.html)" "1 0" \
		"$kind: the HTML page names functions in C++"

	cp c.data a.data
	"$CS" diff a.data c.data > d.txt
	is "$(grep -c "$SQUARE\$" d.txt) $(no_mangled d.txt)" "1 0" "$kind: diff names functions in C++"

	is "$(grep -c '  checked(int) \[left by an exception\]\( \[[^]]*\]\)*$' r.txt)" 1 \
		"$kind: the calls an exception left are tagged as such"

	# threads: each start routine is its thread's root, untagged, and the
	# thread's function is called by it
	RUN='std::thread::_State_impl<std::thread::_Invoker<std::tuple<void (*)(int), int> > >::_M_run()'
	callers() { jq -r --arg f "$1" '[.arcs[] | select(.callee == $f) | .caller] | sort | join(",")' g.json; }
	is "$(callers 'worker::spin(int)')|$(callers "$RUN")|$(callers 'raw_thread(void*)')" \
		"raw_thread(void*),$RUN|<spontaneous>|<spontaneous>" \
		"$kind: std::thread's and pthread_create's start routines are the threads' roots"
	is "$(grep -F "  $RUN" r.txt | grep -vc '\[') $(grep -c '  raw_thread(void\*)$' r.txt)" "1 1" \
		"$kind: ... with no tag"
done

# annotate: a sampled run of the same program, by the function's C++ name
g++ -g -O2 -o cxx_plain "$PROGS/cxx_names.cc" -lpthread
limited "$CS" record --mode=sample -o smp.data -- ./cxx_plain 30000000 > /dev/null 2>&1
"$CS" annotate -i smp.data worker::spin > a.txt
is "$? $(head -1 a.txt | sed 's/ in .*//')" "0 # worker::spin(int)" "annotate takes and shows the C++ name"
"$CS" annotate -i smp.data --no-demangle worker::spin > an.txt
is "$(head -1 an.txt | sed 's/ in .*//')" "# _ZN6worker4spinEi" "annotate --no-demangle shows the linkage name"
done_testing
