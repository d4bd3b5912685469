# Held-out workload for bench/optimize/programs.sh: other parts of the
# interpreter than train.tcl (dictionaries, regular expressions, upvar,
# namespaces, string scanning, list searches).
namespace eval stats {
	proc add {dictVar key value} {
		upvar 1 $dictVar d
		dict update d $key entry {
			if {![info exists entry]} { set entry [dict create n 0 sum 0] }
			dict incr entry n
			dict set entry sum [expr {[dict get $entry sum] + $value}]
		}
	}
}
set d [dict create]
set lines {}
for {set i 0} {$i < 700} {incr i} {
	lappend lines "user[expr {$i % 97}] did task-$i in [expr {($i * 37) % 1000}] ms"
}
foreach line $lines {
	if {[regexp {^(user\d+) did task-(\d+) in (\d+) ms$} $line -> user task ms]} {
		stats::add d $user $ms
	}
	scan $line "user%d" id
}
set best {}
dict for {user entry} $d {
	lappend best [list $user [expr {double([dict get $entry sum]) / [dict get $entry n]}]]
}
set best [lsort -real -decreasing -index 1 $best]
puts [lrange $best 0 2]
puts [lsearch -all -inline -glob [dict keys $d] user1*]
puts [string toupper [regsub -all {\d+} [lindex $lines 42] N]]
