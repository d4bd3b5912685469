# Helpers for the sampling tests, sourced after lib.sh.
#
# A sampler's counts are statistical and a loaded machine changes how much
# CPU a unit of work costs, so the tests compare samples with the CPU time
# the program itself measured, never with a fixed ratio of work.

# worker_rates DATA OUTPUT HZ: for each line "cpu TID NANOSECONDS" the
# program printed into OUTPUT, prints "TID SAMPLES RATE", where RATE is the
# thread's samples in DATA over the samples HZ gives for that CPU time
# (1.00: one sample per period of CPU time).
worker_rates() {
	"$CS" report -i "$1" --thread --json |
		jq -r '.threads[] | "\(.tid) \(.samples // 0)"' > worker-samples.txt
	awk -v hz="$3" 'NR == FNR { s[$1] = $2; next }
		$1 == "cpu" && $3 > 0 { printf "%s %d %.2f\n", $2, s[$2], s[$2] / ($3 / 1e9 * hz) }' \
		worker-samples.txt "$2"
}

# rates_within LOW HIGH < worker_rates output: true when there are three
# workers and every rate lies in [LOW, HIGH].
rates_within() {
	awk -v lo="$1" -v hi="$2" '{ n++; if ($3 < lo || $3 > hi) bad = 1 }
		END { exit !(n == 3 && !bad) }'
}

# cfi_share_at_least PCT < METHOD: the report's stack_method METHOD names
# the call frame information alone, or gives it at least PCT % of the
# samples ("call frame information 97 %, frame pointers then DWARF 3 %")
cfi_share_at_least() {
	awk -v want="$1" '{ if ($0 == "call frame information") exit 0
		if (match($0, /call frame information [0-9]+ %/)) {
			split(substr($0, RSTART, RLENGTH), w, " ")
			exit !(w[4] >= want)
		}
		exit 1 }'
}
