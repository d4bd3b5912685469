# heldout.awk — the input gawk's link orders are measured on, not trained on
# (bench/optimize/programs.sh).  Other parts of the interpreter than
# train.awk: split, match and substr, sprintf, index and toupper, numeric
# arithmetic, a recursive user function.
function fib(n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2)
}
{
	n = split($0, parts, /[(),;]/)
	for (i = 1; i <= n; i++)
		if (match(parts[i], /[A-Za-z_][A-Za-z0-9_]*/))
			ids[substr(parts[i], RSTART, RLENGTH)] += RLENGTH
	sum += index($0, "if") + length(toupper($0))
	line = sprintf("%05d:%s", NR, substr($0, 1, 20))
	h = (h * 31 + length(line)) % 1000003
}
END {
	for (k in ids)
		total += ids[k]
	print sum, total, h, fib(16)
}
