# Sourced by the benchmarks that take medians of interleaved rounds.
# median "V1 V2 ...": the middle of the values (the upper middle of an
# even count), so one slow round on a shared machine does not move it.
median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
