#!/bin/sh
# gprof's options and symspecs give the same output from callscope gprof
# as from GNU gprof: output selection (-p -P -q -Q -C -i), filters with
# symspecs (FUNC, FILE, FILE:FUNC, FILE:LINE, FROM/TO arcs, -n -N -k),
# -z -a -T -w -m, and -l (lines named as DWARF names them, inlined
# functions too) at -O0 and -O2; all on the same gmon.out.
# -A in gprof's layout (--compat=strict) with -t -m -x -J -y -I and
# symspecs; callscope's own -A layout shows the calls from DWARF.
. "$(dirname "$0")/lib.sh"

if ! command -v gprof >/dev/null 2>&1; then
	plan 1
	skip "GNU gprof not installed (binutils)"
	exit 0
fi
plan 112
for case in "4 0" "13 2"; do
	set -- $case
	s=$1
	O=$2
	gprof_program "$s" "$O" p || exit 1
	gmon_of p
	# a global function, a static one and the line a function starts on
	fn=$(nm p | awk '$2 == "T" && $3 ~ /_[0-9]+$/ { print $3; exit }')
	sfn=$(nm p | awk '$2 == "t" && $3 ~ /_[0-9]+$/ { print $3; exit }')
	line=$(grep -n "^void $fn(int d)\$" "p$s.c" | cut -d: -f1)
	for opt in -p -q -z -P -Q -a -T -C -i "-z -T" "-w 120" "-m 2 -C" \
		"-p$fn" "-q$fn" "-P$fn" "-Q$fn" "-n$fn" "-N$fn" "-k$fn/$sfn" \
		"-qmain/$fn" "-Qmain/$fn" "-pp$s.c" "-pp$s.c:$fn" "-qp$s.c:$line" \
		"-C$fn" "-Z$fn" "-e$fn" "-E$fn" "-f$fn" "-F$fn" "-p -q$fn -z" "-l -p -z" \
		"-l -q" "-a -l -p" "-L -l -p" "-l -C" "--no-flat-profile" \
		"-A" "-A -t 3" "-A -t 0" "-A -m 5000" "-A -x" "-J$fn" "-A$sfn" "-A -l -p" \
		"-p -q -C -A" "-D" "-D -a -q" "--no-demangle"; do
		# shellcheck disable=SC2086
		gprof -b $opt p gmon.out > want.txt 2> /dev/null
		wrc=$?
		# shellcheck disable=SC2086
		"$CS" gprof -b --compat=strict $opt p gmon.out > got.txt 2> /dev/null
		grc=$?
		if cmp -s want.txt got.txt && [ "$wrc" = "$grc" ]; then
			ok 0 "seed $s -O$O: '$opt' equals gprof's"
		else
			ok 1 "seed $s -O$O: '$opt' equals gprof's (exit $wrc/$grc)"
			diff want.txt got.txt | head -10 | sed 's/^/#   /'
		fi
	done
done

# -y: the annotated source in FILE-ann files, as gprof writes them
mkdir gnu ours
(cd gnu && gprof -b -A -y ../p ../gmon.out > out.txt 2> /dev/null)
(cd ours && "$CS" gprof -b --compat=strict -A -y ../p ../gmon.out > out.txt 2> /dev/null)
[ -s gnu/p13.c-ann ] && cmp -s gnu/p13.c-ann ours/p13.c-ann && cmp -s gnu/out.txt ours/out.txt
ok $? "-A -y: p13.c-ann and the output equal gprof's"
# -I: the source found in another directory
mkdir src
mv p13.c src/
gprof -b -A -I src p gmon.out > want.txt 2> /dev/null
"$CS" gprof -b --compat=strict -A -I src p gmon.out > got.txt 2> /dev/null
grep -q '^\*\*\* File' got.txt && cmp -s want.txt got.txt
ok $? "-A -I: the moved source is found, output equals gprof's"
mv src/p13.c .

# several source files: gprof's order of files (the last met first, which
# the link order decides) and of execution counts
mkdir multi
cd multi || exit 1
cat > a.c <<'EOF2'
void bwork(int);
static volatile unsigned long s;
void awork(int n) { for (int i = 0; i < n * 1000; i++) s += i; if (n > 0) bwork(n - 1); }
int main(void) { for (int k = 0; k < 3000; k++) awork(5); return 0; }
EOF2
cat > b.c <<'EOF2'
void awork(int);
static volatile unsigned long t;
static void helper(int n) { for (int i = 0; i < n * 500; i++) t += i; }
void bwork(int n) { helper(n); if (n > 1) awork(n - 2); }
EOF2
echo 'int unused_c(int x) { return x * 3; }' > c.c
for build in "0 c.c b.c a.c" "2 a.c b.c c.c"; do
	set -- $build
	O=$1
	shift
	gcc -w -g -pg -O"$O" -o mf "$@"
	rm -f gmon.out
	limited ./mf
	for opt in "-A" "-A -z" "-C" "-l -p -q -C"; do
		# shellcheck disable=SC2086
		gprof -b $opt mf gmon.out > want.txt 2> /dev/null
		# shellcheck disable=SC2086
		"$CS" gprof -b --compat=strict $opt mf gmon.out > got.txt 2> /dev/null
		cmp -s want.txt got.txt
		ok $? "three files linked as '$*' at -O$O: '$opt' equals gprof's"
	done
done
cd .. || exit 1

# without -b: the same tables, explained in callscope's own words
"$CS" gprof -b -p p gmon.out > brief.txt
"$CS" gprof -p p gmon.out > full.txt
[ "$(wc -l < full.txt)" -gt "$(wc -l < brief.txt)" ] &&
	head -n "$(wc -l < brief.txt)" full.txt | cmp -s - brief.txt
ok $? "without -b the flat profile is -b's, then an explanation"
"$CS" gprof p gmon.out > full.txt
gprof p gmon.out > gnu.txt
grep -q "percentage of the total running time" gnu.txt &&
	grep -q "This table describes the call tree" gnu.txt &&
	! grep -q "percentage of the total running time" full.txt &&
	! grep -q "This table describes the call tree" full.txt
ok $? "the explanations are not gprof's text"

# -A: the source annotated with calls from DWARF lines (our own layout)
"$CS" gprof -b -A p gmon.out > ann.txt
grep -q "^\*\*\* File .*p13.c:" ann.txt
ok $? "-A names the source file"
# the busiest called function of the flat profile that has a line of its own
gprof -b -p p gmon.out | awk 'NF == 7 && $4 ~ /^[0-9]+$/ { print $7, $4 }' > called.txt
while read -r f calls; do
	grep -q "^void $f(int d)\$" p13.c && break
done < called.txt
# the calls stand on the function's first line: its opening brace here
grep -B1 " $calls -> {" ann.txt | grep -q "void $f(int d)\$"
ok $? "-A shows $f's $calls calls at its first line"
done_testing
