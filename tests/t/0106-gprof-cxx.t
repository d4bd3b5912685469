#!/bin/sh
# callscope gprof demangles C++ names as GNU gprof does, byte for byte:
# templates, a lambda, namespaces, operators, an [abi:cxx11] tag, clones
# ([clone .cold]), under g++ at -O0 and -O2 and clang++, with gprof's
# --demangle[=STYLE] and --no-demangle, -T (names as in the symbol table)
# and symspecs by linkage name (or by C++ name, which gprof ignores); all
# on the same gmon.out.
. "$(dirname "$0")/lib.sh"

if ! command -v gprof > /dev/null 2>&1 || ! command -v g++ > /dev/null 2>&1; then
	plan 1
	skip "GNU gprof (binutils) or g++ not installed"
	exit 0
fi

OPTS_COUNT=11
compilers="g++:-O0 g++:-O2"
command -v clang++ > /dev/null 2>&1 && compilers="$compilers clang++:-O2"
plan $(( $(echo $compilers | wc -w) * (OPTS_COUNT + 1) + 4 ))
for c in $compilers; do
	cxx=${c%%:*}
	opt=${c#*:}
	"$cxx" -g -pg $opt -o cxx "$PROGS/cxx_names.cc" -lpthread || exit 1
	gmon_of cxx
	gprof -b cxx gmon.out > want.txt 2>&1
	is "$(grep -c 'geometry::Square::area() const' want.txt)" 3 \
		"$cxx $opt: GNU gprof shows the demangled names (the comparison means something)"
	n=0
	for o in "-b" "-b -p" "-b -q" "-b -z" "-b -a" "-b -w 60" "-b -T" "-b --no-demangle" \
		"-b --demangle" "-b --demangle=gnu-v3" "-b -p_ZNK8geometry6Square4areaEv -q_Z7checkedi"; do
		n=$((n + 1))
		# shellcheck disable=SC2086
		gprof $o cxx gmon.out > want.txt 2>&1
		# shellcheck disable=SC2086
		"$CS" gprof $o cxx gmon.out > got.txt 2>&1
		same_file want.txt got.txt "$cxx $opt: gprof $o: byte for byte"
	done
	[ "$n" = "$OPTS_COUNT" ] || echo "# OPTS_COUNT is $OPTS_COUNT, $n options were run"
done
# a spec gprof does not understand, a C++ name, names what the linkage name names
for pair in "-pgeometry::Square::area -p_ZNK8geometry6Square4areaEv" \
	"-qcxx_names.cc:worker::spin -qcxx_names.cc:_ZN6worker4spinEi" \
	"-Qsum_all<int> -Q_Z7sum_allIiET_RKSt6vectorIS0_SaIS0_EE"; do
	gprof -b "${pair#* }" cxx gmon.out > want.txt 2>&1
	"$CS" gprof -b "${pair%% *}" cxx gmon.out > got.txt 2>&1
	same_file want.txt got.txt "symspec ${pair%% *}: as gprof's ${pair#* }"
done
"$CS" gprof --demangle=klingon cxx gmon.out > /dev/null 2> err.txt
is "$?:$(cat err.txt)" \
	"2:callscope: unknown demangling style 'klingon'; give auto, gnu-v3, java, gnat, dlang or rust" \
	"an unknown demangling style is a usage error naming the styles"
done_testing
