#!/usr/bin/perl
# Reads the data block of a page `callscope html` wrote, without a browser
# (core Perl modules only), and prints it as JSON:
#   {"meta": {...the block's header...}, "deflate": "stored"|"compressed",
#    "functions": [{name, calls, self_ns, total_ns, min_ns, avg_ns, max_ns (null: not
#                   recorded),
#                   listed, rank, base_self_ns..., self_samples, samples}],
#    "nodes": N, "cut_paths": N, "node_self_ns": N, "node_self_samples": N...,
#    "lines": [{file, line, function, samples or self_ns}], "source": [{file, line, text}],
#    with html --static "static_arcs": [{caller, callee, tail}]}
# Usage: decode.pl PAGE.html
use strict;
use warnings;
use MIME::Base64 qw(decode_base64);
use Compress::Raw::Zlib;
use JSON::PP;

my $page = do { local $/; open my $f, '<', $ARGV[0] or die "cannot read $ARGV[0]: $!\n"; <$f> };
$page =~ m{<script type="application/octet-stream" id="cs-data">([A-Za-z0-9+/=]*)</script>}
	or die "no data block\n";
my $z = decode_base64($1);
my $kind = (ord(substr($z, 0, 1)) & 6) == 0 ? 'stored' : 'compressed';
my ($inf, $st) = Compress::Raw::Zlib::Inflate->new(-WindowBits => -MAX_WBITS);
my $raw;
$st = $inf->inflate($z, $raw);
die "inflate: $st\n" unless $st == Z_STREAM_END;
substr($raw, 0, 8) eq "CSHTML1\n" or die "bad magic\n";
my $len = unpack('V', substr($raw, 8, 4));
my $meta = decode_json(substr($raw, 12, $len));
my ($at, %col) = (12 + $len);
for my $c (@{ $meta->{columns} }) {
	$col{ $c->{name} } = { %$c, bytes => substr($raw, $at, $c->{bytes}) };
	$at += $c->{bytes};
}
die "trailing bytes\n" unless $at == length $raw;

sub uvarints {
	my $c = $col{ $_[0] } or return [];
	my @out;
	my ($v, $mul) = (0, 1);
	for my $b (unpack 'C*', $c->{bytes}) {
		$v += ($b & 127) * $mul;
		$mul *= 128;
		next if $b & 128;
		push @out, $v;
		($v, $mul) = (0, 1);
	}
	die "$_[0]: count\n" unless @out == $c->{count};
	return \@out;
}
my @names = split /\0/, $col{'func.name'}{bytes}, -1;
pop @names;
my %f;
for my $k (qw(listed rank calls self.time total.time min.time avg.time max.time)) {
	$f{$k} = uvarints("func.$k");
	$f{"base.$k"} = uvarints("base.func.$k");
}
my @funcs;
for my $i (0 .. $#names) {
	my %r = (name => $names[$i], listed => $f{listed}[$i], rank => $f{rank}[$i],
		 calls => $f{calls}[$i], self_ns => $f{'self.time'}[$i],
		 total_ns => $f{'total.time'}[$i], min_ns => $f{'min.time'}[$i],
		 avg_ns => $f{'avg.time'}[$i], max_ns => $f{'max.time'}[$i]);
	# a count run without per-call times: min and max are not known
	@r{qw(min_ns max_ns)} = (undef, undef) if uvarints('func.calls_untimed')->[$i];
	for my $c (qw(c1 c2)) {
		next unless $col{"func.self.$c"};
		$r{$c} = uvarints("func.self.$c")->[$i];
		$r{"${c}_total"} = uvarints("func.total.$c")->[$i];
	}
	if ($col{'func.self.samples'}) {
		$r{self_samples} = uvarints('func.self.samples')->[$i];
		$r{samples} = uvarints('func.total.samples')->[$i];
	}
	if ($col{'base.func.self.samples'}) {
		$r{base_self_samples} = uvarints('base.func.self.samples')->[$i];
		$r{base_samples} = uvarints('base.func.total.samples')->[$i];
	}
	if (@{ $f{'base.calls'} }) {
		$r{base_calls} = $f{'base.calls'}[$i];
		$r{base_self_ns} = $f{'base.self.time'}[$i];
		$r{base_total_ns} = $f{'base.total.time'}[$i];
	}
	push @funcs, \%r;
}
my $cut = 0;
$cut += $_ for @{ uvarints('node.cut') };
my $self = 0;
$self += $_ for @{ uvarints('node.self.time') };
my %sums = (node_self_ns => $self);
if ($col{'base.node.self.samples'}) {
	my $n = 0;
	$n += $_ for @{ uvarints('base.node.self.samples') };
	$sums{node_base_self_samples} = $n;
}
for my $c (qw(c1 c2 samples)) {
	next unless $col{"node.self.$c"};
	my $n = 0;
	$n += $_ for @{ uvarints("node.self.$c") };
	$sums{"node_self_$c"} = $n;
}
# samples per source line, and the source text carried
my (@lines, @source);
if ($col{'line.weight'}) {
	my @files = split /\0/, $col{files}{bytes}, -1;
	pop @files;
	my ($lf, $ll, $lfn, $lw) = map { uvarints("line.$_") } qw(file line func weight);
	my $unit = $meta->{cuts}{lines_unit} eq 'ns' ? 'self_ns' : 'samples';
	push @lines, { file => $files[ $lf->[$_] ], line => $ll->[$_], function => $names[ $lfn->[$_] ],
		       $unit => $lw->[$_] } for 0 .. $#$lw;
	my @text = split /\0/, $col{'src.text'}{bytes}, -1;
	pop @text;
	my ($sf, $sl) = map { uvarints("src.$_") } qw(file line);
	push @source, { file => $files[ $sf->[$_] ], line => $sl->[$_], text => $text[$_] } for 0 .. $#$sl;
}
# html --static: the calls in the code that never ran
my @static;
if ($col{'static.caller'}) {
	my ($sc, $se, $st) = map { uvarints("static.$_") } qw(caller callee tail);
	push @static, { caller => $names[ $sc->[$_] ], callee => $names[ $se->[$_] ], tail => $st->[$_] }
		for 0 .. $#$sc;
	$sums{static_arcs} = \@static;
}
print JSON::PP->new->canonical->encode({ meta => $meta, deflate => $kind, functions => \@funcs,
	nodes => $col{'node.depth'}{count}, cut_paths => $cut, lines => \@lines, source => \@source,
	%sums });
