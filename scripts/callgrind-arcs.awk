# callgrind-arcs.awk: calls and arcs of one object from a callgrind.out
# file, the oracle callscope's call graph is compared with.
#
#   awk -v obj=SUFFIX [-v what=arcs|calls] -f callgrind-arcs.awk callgrind.out
#
# what=arcs (default): "caller callee count" for every call between two
# distinct functions of the object whose path ends in SUFFIX.  what=calls:
# "function count", the calls into each function of the object from
# anywhere.  Callgrind follows jumps between functions, so a tail call is
# the jumping function's.  Recursion levels callgrind tells apart (f'2) and
# the parts gcc moves out of line (f.cold) are folded into their function;
# unnamed code (0x...) and valgrind's own names ((below_main)) are left
# out.  Output is unsorted.
function named(s, table,    id) {
	if (!match(s, /^\([0-9]+\)/))
		return s
	id = substr(s, RSTART, RLENGTH)
	if (length(s) > RLENGTH)
		table[id] = substr(s, RLENGTH + 2)
	return table[id]
}
function mine(o) { return substr(o, length(o) - length(obj) + 1) == obj }
function base(f) { sub(/(\.cold(\.[0-9]+)?)?(\047[0-9]+)?$/, "", f); return f }
/^ob=/ { ob = named(substr($0, 4), obs); next }
/^fn=/ { fn = base(named(substr($0, 4), fns)); cob = ""; next }
/^cob=/ { cob = named(substr($0, 5), obs); next }
/^cfn=/ { cfn = base(named(substr($0, 5), fns)); next }
/^calls=/ {
	split(substr($0, 7), a, " ")
	o = cob != "" ? cob : ob
	if (what == "calls") {
		if (mine(o) && cfn !~ /^(0x|\()/)
			n[cfn] += a[1]
	} else if (mine(ob) && mine(o) && fn != cfn && fn !~ /^(0x|\()/ && cfn !~ /^(0x|\()/) {
		n[fn " " cfn] += a[1]
	}
	cob = ""
}
END { for (k in n) print k, n[k] }
