#!/bin/sh
# The old BSD and 4.4BSD gmon.out layouts: a GNU gmon.out rewritten in
# each (same histogram, same arcs) is read by GNU gprof and by callscope
# gprof to the same bytes, detected by itself or forced with -O, and
# gives the report of the GNU file; -O 4 on an old BSD file is refused
# with one line.
. "$(dirname "$0")/lib.sh"

if ! command -v gprof >/dev/null 2>&1 || ! command -v perl >/dev/null 2>&1; then
	plan 1
	skip "GNU gprof (binutils) or perl not installed"
	exit 0
fi

# to_bsd GNU OUT [44]: the records of a GNU gmon.out (one histogram,
# arcs) in the old BSD layout (20-byte header), or the 4.4BSD one
# (40-byte header with version 0x51879 and the rate)
to_bsd() {
	perl -e '
		my ($in, $out, $v44) = @ARGV;
		open F, "<", $in or die; binmode F; local $/; my $d = <F>;
		my ($pos, $lo, $hi, $n, $rate, $bins, @arcs) = (20);
		while ($pos < length $d) {
			my $tag = ord substr($d, $pos++, 1);
			if ($tag == 0) {
				($lo, $hi, $n, $rate) = unpack "Q<Q<L<L<", substr($d, $pos, 24);
				$pos += 40;
				$bins = substr($d, $pos, 2 * $n);
				$pos += 2 * $n;
			} elsif ($tag == 1) {
				push @arcs, [unpack "Q<Q<L<", substr($d, $pos, 20)];
				$pos += 20;
			} else {
				die "tag $tag";
			}
		}
		open O, ">", $out or die; binmode O;
		if ($v44) {
			print O pack("Q<Q<L<L<L<", $lo, $hi, 40 + 2 * $n, 0x00051879, $rate), "\0" x 12;
		} else {
			print O pack("Q<Q<L<", $lo, $hi, 20 + 2 * $n);
		}
		print O $bins, map { pack "Q<Q<Q<", @$_ } @arcs;' "$@"
}

plan 24
for case in "4 0" "13 2"; do
	set -- $case
	s=$1
	O=$2
	gprof_program "$s" "$O" p || exit 1
	gmon_of p
	to_bsd gmon.out old.out || exit 1
	to_bsd gmon.out new.out 44 || exit 1
	"$CS" gprof -b p gmon.out > gnu.txt
	for f in old.out new.out; do
		for opt in "" "-p -q -z" "-i" "-O b" "-O 4"; do
			[ "$f:$opt" = "old.out:-O 4" ] && continue
			# shellcheck disable=SC2086
			gprof -b $opt p $f > want.txt 2> /dev/null
			# shellcheck disable=SC2086
			"$CS" gprof -b --compat=strict $opt p $f > got.txt 2> /dev/null
			cmp -s want.txt got.txt
			ok $? "seed $s -O$O: $f '$opt' equals gprof's"
		done
		"$CS" gprof -b p $f > got.txt
		cmp -s gnu.txt got.txt
		ok $? "seed $s -O$O: $f reads as the GNU file does"
	done
	"$CS" gprof -b -O 4 p old.out > out.txt 2> err.txt
	rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l < err.txt)" -eq 1 ] && grep -q "4.4BSD" err.txt && [ ! -s out.txt ]
	ok $? "seed $s: -O 4 on an old BSD file: exit $rc, one line: $(cat err.txt)"
done
done_testing
