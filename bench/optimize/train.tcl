# Training workload for bench/optimize/programs.sh: procedures, lists,
# strings and arithmetic in the Tcl interpreter.
proc fib {n} { if {$n < 2} { return $n }; expr {[fib [expr {$n - 1}]] + [fib [expr {$n - 2}]]} }
proc words {n} {
	set out {}
	for {set i 0} {$i < $n} {incr i} {
		lappend out [format "w%04d-%s" [expr {($i * 7919) % 10007}] [string repeat x [expr {$i % 7}]]]
	}
	return $out
}
set total 0
for {set r 0} {$r < 6} {incr r} {
	set l [words 2000]
	set s [lsort $l]
	foreach w $s { incr total [string length $w] }
	set joined [join [lrange $s 0 200] ,]
	set total [expr {$total + [llength [split $joined ,]]}]
	set m [string map {x y w v} $joined]
	incr total [string first v $m]
}
puts "$total [fib 20]"
