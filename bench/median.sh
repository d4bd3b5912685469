# shellcheck shell=bash
# Sourced by the benchmarks that take medians of interleaved rounds.
# median "V1 V2 ...": the middle of the values (the upper middle of an
# even count), so one slow round on a shared machine does not move it.
median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# rounds_cpu_wall RUN VARIANT...: REPEAT interleaved rounds, each running
# "RUN VARIANT" (which prints "CPU WALL") once per variant, in order, so a
# change in the machine's load touches every variant alike; the values
# gather in the caller's associative arrays CPU and WALL, by variant.
# shellcheck disable=SC2004 # CPU and WALL are the caller's associative arrays
rounds_cpu_wall() {
	local run=$1 r v c w
	shift
	for ((r = 0; r < REPEAT; r++)); do
		for v in "$@"; do
			read -r c w <<<"$("$run" "$v")"
			CPU[$v]="${CPU[$v]:-} $c"
			WALL[$v]="${WALL[$v]:-} $w"
		done
	done
}
