#!/bin/sh
# A damaged data file is never read as if it were whole: cut anywhere
# (at a section boundary too, where no length can tell), with a lying
# section length, with bytes appended, or with one bit flipped where no
# size check can see it (inside an event stream, a path, a time), every
# command fails with one line naming the damage and exit status 1.
. "$(dirname "$0")/lib.sh"

# boundaries FILE: the offset of every section header, then the file size
# (the layout is in docs/FORMAT.md: a 32-byte header, then sections of a
# 16-byte header whose u64 at +8 is the payload length).
boundaries() {
	perl -e '
		local $/; open my $f, "<:raw", $ARGV[0] or die; my $d = <$f>;
		my $p = unpack("V", substr($d, 12, 4));
		while ($p + 16 <= length $d) {
			print "$p\n";
			$p += 16 + unpack("Q<", substr($d, $p + 8, 8));
		}
		print length($d), "\n";' "$1"
}

# damaged NAME FILE: every reading command fails on FILE with one line.
damaged() {
	bad=0
	for cmd in report graph info; do
		"$CS" $cmd -i "$2" > out.txt 2> err.txt
		rc=$?
		if [ "$rc" -ne 1 ] || [ "$(wc -l < err.txt)" -ne 1 ] || ! grep -q "is damaged: " err.txt; then
			echo "#   $cmd exited $rc, said: $(cat err.txt)"
			bad=1
		fi
	done
	ok $bad "$1: one line saying the file is damaged, exit 1"
}

build_prog basic prog -O2 -pg
limited "$CS" record -o whole.data -- ./prog 8 > /dev/null 2>&1
size=$(stat -c %s whole.data)
set -- $(boundaries whole.data)
nsections=$(( $# - 1 ))

plan $(( 3 + 4 + nsections + 2 + 4 ))
"$CS" report -i whole.data > /dev/null 2>&1
is "$?" 0 "the whole file reads"
[ "$nsections" -ge 4 ]
ok $? "the recording has sections to cut at ($nsections)"
[ "$(eval echo \${$#})" -eq "$size" ]
ok $? "the sections end exactly at the end of the file"

for n in 8 64 256 $(( size * 3 / 4 )); do
	head -c "$n" whole.data > cut.data
	damaged "cut at $n bytes" cut.data
done
# Cutting at a section boundary leaves every length consistent: only the
# END section, which a sealed file always ends with, tells it was cut.
i=0
for at in "$@"; do
	i=$((i + 1))
	[ "$i" -gt "$nsections" ] && break
	head -c "$at" whole.data > cut.data
	damaged "cut at section boundary $at" cut.data
done

# the last section (END) claims one byte more than the file holds
last=$(eval echo \${$nsections})
cp whole.data lying.data
perl -e '
	local $/; open my $f, "+<:raw", $ARGV[0] or die; my $d = <$f>;
	substr($d, $ARGV[1] + 8, 8) = pack("Q<", unpack("Q<", substr($d, $ARGV[1] + 8, 8)) + 1);
	seek $f, 0, 0; print $f $d;' lying.data "$last"
damaged "a section longer than the file" lying.data
cp whole.data longer.data
printf 'more' >> longer.data
damaged "bytes after the END section" longer.data

# flip BYTE-OFFSET: a copy of the file with one bit of that byte flipped
flip() {
	perl -e '
		local $/; open my $f, "<:raw", $ARGV[0] or die; my $d = <$f>;
		substr($d, $ARGV[1], 1) = chr(ord(substr($d, $ARGV[1], 1)) ^ 0x10);
		open my $o, ">:raw", "flipped.data" or die; print $o $d;' whole.data "$1"
}
end=$(eval echo \${$nsections})
for at in 70 $(( size / 2 )) $(( end - 1 )) $(( size - 1 )); do
	flip "$at"
	damaged "one bit flipped at byte $at" flipped.data
done
done_testing
