#!/bin/sh
# How 'optimize --measure' calls a difference over several code offsets:
# when the ranges separate, or when offset by offset one layout has fewer
# misses often enough for the sign test (two-sided, 5 %).  The misses are
# made up: a stand-in for valgrind writes, for each binary and offset, the
# number the binary lists, so each rule meets exactly the case it is for.
. "$(dirname "$0")/lib.sh"

plan 12

# The "binaries" are scripts listing their misses at each offset; the
# relink command copies one and notes its padding, the stand-in reads both.
layout() {	# NAME MISSES...
	name=$1
	shift
	printf '#!/bin/sh\n# misses %s\n' "$*" >"$name"
	chmod +x "$name"
}
mkdir bin
cat >bin/valgrind <<'SH'
#!/bin/sh
[ "$1" = --version ] && { echo valgrind-3.19.0; exit 0; }
out= prog=
for a in "$@"; do
	case $a in
	--cachegrind-out-file=*) out=${a#*=} ;;
	--*) ;;
	*) [ -z "$prog" ] && prog=$a ;;
	esac
done
pad=$(sed -n 's/^# pad //p' "$prog")
index=$((${pad:-0} / 16 + 1))
misses=$(sed -n 's/^# misses //p' "$prog" | cut -d' ' -f"$index")
printf 'events: Ir I1mr\nsummary: 1000000 %s\n' "$misses" >"$out"
SH
chmod +x bin/valgrind
PATH=$WORK/bin:$PATH
cat >relink.sh <<'SH'
#!/bin/sh
{ cat "$CALLSCOPE_BINARY"; echo "# pad $CALLSCOPE_PAD"; } >"$CALLSCOPE_OUT"
chmod +x "$CALLSCOPE_OUT"
SH
chmod +x relink.sh
OFFSETS=0,16,32,48,64,80

#                 offset: 0    16   32   48   64   80
layout base           1000 2000 3000 4000 5000 6000
layout every          990  1980 2970 3960 4950 5940	# fewer at all six
layout five           990  1980 2970 3960 4950 6010	# fewer at five of six
layout apart          500  600  700  800  900  950	# the ranges separate
layout same           1000 2000 3000 4000 5000 6000
layout worse          1010 2020 3030 4040 5050 6060

measure() { limited "$CS" optimize --measure base "$@" --relink=./relink.sh \
	--offsets=$OFFSETS --cache=32K,8,64 -j 2 -- x; }

measure every five apart same worse >m.txt 2>m.err
ok $? "measure runs with the stand-in"
grep -q "^verdict: every is better than base: 1% fewer I1 32K/8/64 misses (fewer at 6 of 6 offsets, sign test p=0.031)" m.txt
ok $? "fewer at every offset is a win though the ranges overlap"
grep -q "^verdict: no clear difference between five and base: .*(fewer at 5 of 6 offsets, sign test p=0.22: within the offsets' range)" m.txt
ok $? "fewer at five of six is not called"
grep -q "^verdict: apart is better than base: .*(the offsets' ranges separate)" m.txt
ok $? "separate ranges are a win"
grep -q "^verdict: no clear difference between same and base: 0% fewer .*(fewer at 0 of 6 offsets, sign test p=1: within" m.txt
ok $? "the same misses are no difference"
grep -q "^verdict: worse is worse than base: 1% more .*(fewer at 0 of 6 offsets, sign test p=0.031)" m.txt
ok $? "more at every offset is a loss"
[ "$(grep -c '^verdict' m.txt)" -eq 5 ]
ok $? "one verdict per layout"

measure every five >m.json --json 2>m.err
ok $? "measure --json runs"
is "$(jq -c '.binaries[0].caches[0].misses' m.json)" "[1000,2000,3000,4000,5000,6000]" \
	"the misses at each offset, in the offsets' order"
is "$(jq -c '.binaries[1].caches[0] | [.fewer_at, .more_at, .verdict]' m.json)" "[6,0,1]" \
	"every: fewer at 6, more at none, better"
is "$(jq -c '.binaries[2].caches[0] | [.fewer_at, .more_at, .verdict, (.sign_test_p * 1000 | round)]' m.json)" \
	"[5,1,0,219]" "five: fewer at 5, more at 1, no call, p = 0.219"
is "$(jq -c '.binaries[0].caches[0] | has("verdict")' m.json)" "false" "the baseline has no verdict"
done_testing
