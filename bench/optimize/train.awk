# train.awk — the input gawk's link orders are trained on (bench/optimize/programs.sh).
# Word frequencies with regex substitution, then a sorted walk of the counts.
{
	for (i = 1; i <= NF; i++) {
		w = tolower($i)
		gsub(/[^a-z_]/, "", w)
		if (w != "")
			count[w]++
	}
	len[length($0)]++
}
END {
	for (w in count)
		if (count[w] > 20)
			n++
	PROCINFO["sorted_in"] = "@val_num_desc"
	for (w in count) {
		if (++k > 10)
			break
		printf "%s %d\n", w, count[w]
	}
	print n
}
