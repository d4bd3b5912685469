#!/usr/bin/perl
# session_forge.pl [--section=TYPE] FILE OFFSET=VALUE...: sets u64 fields
# of FILE's SESSION section (or of the first section of TYPE; OFFSET within
# its payload, docs/FORMAT.md) and writes the END section's sums again, so
# the forged file passes the checksum and only the forged values are
# wrong.  VALUE may be +N or -N: added to what is there.  OFFSET may be
# end-N: N bytes before the section's end, for the fields after a blob.
use strict;
use warnings;

my $want = 1;
$want = $1 if @ARGV && $ARGV[0] =~ /^--section=(\d+)$/ && shift @ARGV;
my $path = shift @ARGV;
open(my $fh, '<:raw', $path) or die "cannot open $path: $!\n";
local $/;
my $d = <$fh>;
close($fh);

my $p = unpack('V', substr($d, 12, 4));
my ($session, $session_len, $end);
while ($p + 16 <= length($d)) {
	my ($type, $flags, $len) = unpack('V V Q<', substr($d, $p, 16));
	($session, $session_len) = ($p + 16, $len) if $type == $want && !defined $session;
	$end = $p if $type == 7;
	$p += 16 + $len;
}
die "$path: no section of type $want\n" unless defined $session;
die "$path: no END section\n" unless defined $end;
for my $arg (@ARGV) {
	my ($off, $value) = $arg =~ /^((?:end-)?\d+)=([-+]?\d+)$/ or die "bad field '$arg'\n";
	$off = $session_len - $1 if $off =~ /^end-(\d+)$/;
	my $old = unpack('Q<', substr($d, $session + $off, 8));
	my $new = $value =~ /^[-+]/ ? $old + $value : $value;
	substr($d, $session + $off, 8) = pack('Q<', $new);
}

# the sums of docs/FORMAT.md, section END, modulo 2^64
my ($sum, $weighted) = (0, 0);
my $body = substr($d, 0, $end);
$body .= "\0" x ((8 - length($body) % 8) % 8);
{
	use bigint;
	my $mask = (1 << 64) - 1;
	for my $w (unpack('Q<*', $body)) {
		$sum = ($sum + $w) & $mask;
		$weighted = ($weighted + $sum) & $mask;
	}
}
substr($d, $end + 16, 16) = pack('Q< Q<', "$sum", "$weighted");
open($fh, '>:raw', $path) or die "cannot write $path: $!\n";
print $fh $d;
close($fh);
