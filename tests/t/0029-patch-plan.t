#!/bin/sh
# The plans record --patch makes, checked without running them: for a
# corpus of entry shapes (tests/progs/patch_corpus.c) built by gcc and
# clang at -O2 and -Os, with -fcf-protection, PIE and not, and stripped,
# every relocated window decodes to the original instructions reaching
# the same addresses (plan_check, capstone); no site's window holds the
# target of a branch objdump finds; the functions skipped are the ones
# that cannot be patched, each with its reason; and real programs' entries
# are covered to 99 % or more.
. "$(dirname "$0")/lib.sh"

CHECK="$BUILD/tests/plan_check"
VARIANTS="gcc:-O2 gcc:-O2:-no-pie gcc:-Os gcc:-O2:-fcf-protection=full clang:-O2 clang:-Os clang:-O2:-fcf-protection=full"
plan $((7 * 5 + 2 + 2 + 4 + 1))

# branches_into PROG SITES: the sites (lines "site ADDR WINDOW FUNCTION")
# whose window holds, past its first byte, the target of a direct branch
# objdump finds anywhere in PROG, and the islands of short jumps (lines
# "island ADDR 5 FUNCTION") that hold one anywhere: none may.
branches_into() {
	objdump -d --no-show-raw-insn "$1" | perl -e '
		my %t;
		while (<STDIN>) { $t{hex $1} = 1 if /^\s*[0-9a-f]+:\s+(?:j\w+|call\w*|loop\w*)\s+([0-9a-f]+)\s/ }
		open(my $s, "<", $ARGV[0]) or die;
		while (<$s>) {
			my ($kind, $a, $w) = split;
			next unless $kind eq "site" || $kind eq "island";
			$a = hex $a;
			my $from = $kind eq "site" ? $a + 1 : $a;
			for my $x ($from .. $a + $w - 1) { print if $t{$x} }
		}' "$2"
}

# site_of FILE ADDR: whether FILE has a site for the function at ADDR
site_of() {
	perl -e 'my $want = hex $ARGV[1]; open(my $f, "<", $ARGV[0]) or die;
		while (<$f>) { my @w = split; exit 0 if $w[0] eq "site" && hex($w[3]) == $want } exit 1' "$1" "$2"
}

for v in $VARIANTS; do
	cc=${v%%:*}
	flags=$(echo "${v#*:}" | tr ':' ' ')
	name=$(echo "$v" | tr -d ':=-')
	if ! command -v "$cc" > /dev/null || ! "$cc" -g -w $flags -o "$name" "$PROGS/patch_corpus.c"; then
		for i in 1 2 3 4; do skip "$cc $flags: cannot build the corpus"; done
		continue
	fi
	"$CHECK" "./$name" > "$name.out" 2>&1
	ok $? "$cc $flags: every relocated window reaches the original's addresses"
	grep '^bad' "$name.out" | head -5 | sed 's/^/#   /'
	is "$(branches_into "$name" "$name.out")" "" "$cc $flags: no branch lands inside a patched window"
	# what is skipped: the entry point alone, which no call enters
	skipped=$(awk '$1 == "skip" { print $4 "=" $3 }' "$name.out" | tr '\n' ' ')
	is "$skipped" "_start=9 " "$cc $flags: only the entry point skipped"
	# trapped (int3) only where no jump fits: by hand-written shape
	# everywhere; at -Os also what packed code leaves no room in (a body
	# shorter than the jump with the next function right after it, a loop
	# head in the first bytes)
	nm "$name" > names.txt
	trapped=$(perl -e 'open(my $n, "<", $ARGV[0]) or die; my %n;
		while (<$n>) { my @w = split; $n{hex $w[0]} = $w[2] if @w == 3 }
		open(my $s, "<", $ARGV[1]) or die;
		while (<$s>) { my @w = split; print "$n{hex $w[3]}\n" if $w[0] eq "site" && $w[4] eq "int3" }' \
		names.txt "$name.out" | sed 's/_[0-9]*$//' | LC_ALL=C sort -u | tr '\n' ' ')
	case "$flags" in
	*-Os*)
		echo "$trapped" | tr ' ' '\n' | grep -v '^$' |
			grep -qv '^\(asm_into\|asm_no_room\|tiny_void\|tiny_zero\|tail_jump\|gcd\)$'
		ok $(( ! $? )) "$cc $flags: only packed tiny bodies and early loop heads trapped ($trapped)"
		# most of those take a 2-byte jump to an island instead
		short=$(awk '$1 == "site" && $5 == "jmp8"' "$name.out" | wc -l)
		islands=$(grep -c '^island' "$name.out")
		[ "$short" -ge 16 ] && [ "$islands" -eq "$short" ]
		ok $? "$cc $flags: $short entries take a short jump to an island"
		;;
	*)
		is "$trapped" "asm_no_room " "$cc $flags: only the one-byte body packed against the next trapped"
		;;
	esac
	# the shapes that need the relocation's every trick are patched
	for f in asm_loop0 asm_cetbug asm_jrcxz asm_call_first asm_one_byte asm_into; do
		nm "$name" | awk -v f="$f" '$3 == f { print "0x" $1 }'
	done > want.txt
	missing=0
	while read -r addr; do
		site_of "$name.out" "$addr" || missing=$((missing + 1))
	done < want.txt
	is "$missing" 0 "$cc $flags: loop at entry, endbr64 before a loop head, jrcxz, call, one-byte body, loop head at 2: patched"
done

# stripped: functions from the FDEs alone
cp gccO2 stripped && strip stripped
"$CHECK" ./stripped > stripped.out 2>&1
ok $? "stripped: every relocated window reaches the original's addresses"
set -- $(tail -1 stripped.out)
[ "$2" -ge 150 ] && [ $(( $4 * 100 )) -ge $(( $2 * 99 )) ]
ok $? "stripped: the FDEs give the functions, 99 % patched ($4 of $2)"

# real programs built without hooks
for prog in /usr/bin/lua5.4 /usr/lib/x86_64-linux-gnu/libz.so.1; do
	if [ ! -r "$prog" ]; then
		skip "$prog is not installed"
		skip "$prog is not installed"
		continue
	fi
	"$CHECK" "$prog" > real.out 2>&1
	rc=$?
	set -- $(tail -1 real.out)
	[ $rc -eq 0 ] && [ $(( $4 * 100 )) -ge $(( $2 * 99 )) ]
	ok $? "$prog: relocation checked, $4 of $2 functions patched (99 % or more)"
	is "$(branches_into "$prog" real.out)" "" "$prog: no branch lands inside a patched window"
done

# a large object is scanned on several threads (one per processor, a
# thousand functions each at least): the plan must not depend on how they
# ran.  libc's 3 000 functions, planned six times, give one plan.
libc=$(ldd "$CHECK" | awk '$1 ~ /^libc[.]so/ { print $3 }')
for i in 1 2 3 4 5 6; do
	"$CHECK" "$libc" > libc.out 2>&1 && cat libc.out check.plan | md5sum
done | sort -u > plans.txt
is "$(wc -l < plans.txt)" 1 "$libc: six plans, one the same as the others"
