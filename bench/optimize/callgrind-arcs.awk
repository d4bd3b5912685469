# bench/optimize/callgrind-arcs.awk — the call graph callgrind measured,
# as lld's --call-graph-ordering-file reads it: "CALLER CALLEE COUNT" per
# pair of functions that called each other, both in an object whose path
# ends in OBJECT.
#
#   awk -v object=/lua-default -f callgrind-arcs.awk callgrind.out
#
# callgrind follows jumps between functions, so a tail call counts as a
# call by the function that jumped.  It names a recursion level NAME'2,
# NAME'3: those are folded back into NAME, and a function's calls to
# itself are left out (lld has no use for them).  callgrind.out compresses
# names: "(7) name" defines number 7, "(7)" alone refers back to it;
# objects (ob=, cob=) and functions (fn=, cfn=) are numbered apart.

# The name TOKEN stands for, defining its number in TABLE ("ob" or "fn").
function expand(token, table,    id) {
	if (token !~ /^\([0-9]+\)/)
		return token
	id = substr(token, 2, index(token, ")") - 2)
	if (index(token, ") "))
		names[table, id] = substr(token, index(token, ") ") + 2)
	return (table, id) in names ? names[table, id] : "?"
}

function ends_in(path) {
	return length(path) >= length(object) &&
		substr(path, length(path) - length(object) + 1) == object
}

/^ob=/ { ob = expand(substr($0, 4), "ob"); have_cob = 0; next }
/^fn=/ { fn = expand(substr($0, 4), "fn"); sub(/'.*/, "", fn); have_cob = 0; cfn = ""; next }
/^cob=/ { cob = expand(substr($0, 5), "ob"); have_cob = 1; next }
/^cfn=/ { cfn = expand(substr($0, 5), "fn"); sub(/'.*/, "", cfn); next }
/^calls=/ && cfn != "" {
	split(substr($0, 7), count, " ")
	callee_ob = have_cob ? cob : ob
	if (ends_in(ob) && ends_in(callee_ob) && fn != cfn)
		arcs[fn " " cfn] += count[1]
	have_cob = 0
	cfn = ""
}

END {
	for (arc in arcs)
		print arc, arcs[arc]
}
