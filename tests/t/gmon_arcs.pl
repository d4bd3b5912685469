#!/usr/bin/perl
# gmon_arcs.pl GMON: prints "FROM SELF COUNT" (hex addresses) for each
# CG_ARC record of a GNU gmon.out, skipping its histogram records.
use strict;
use warnings;

open(my $fh, '<:raw', $ARGV[0]) or die "cannot open $ARGV[0]: $!\n";
local $/;
my $d = <$fh>;
my $p = 20;
while ($p < length($d)) {
	my $tag = ord(substr($d, $p, 1));
	$p++;
	if ($tag == 0) {
		my $bins = unpack('V', substr($d, $p + 16, 4));
		$p += 8 + 8 + 4 + 4 + 15 + 1 + 2 * $bins;
	} elsif ($tag == 1) {
		my ($from, $self, $count) = unpack('Q< Q< V', substr($d, $p, 20));
		printf "%x %x %d\n", $from, $self, $count;
		$p += 20;
	} else {
		die "record tag $tag at offset ", $p - 1, "\n";
	}
}
