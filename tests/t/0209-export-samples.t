#!/bin/sh
# export of a recording of timer samples alone (a program without hooks):
# every format that can hold samples counts each function's own samples
# exactly as `report` does (gprof's self column, callgrind_annotate's
# totals, the pprof samples ending in it, the folded lines ending in it,
# the .prf hits), the stacks survive in folded and pprof, and the formats
# that need calls refuse with one line instead of writing an empty file.
. "$(dirname "$0")/lib.sh"

for tool in gprof callgrind_annotate protoc; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "1..0 # skip $tool is not installed (scripts/deps/export.txt)"
		exit 0
	fi
done

# self_samples FUNCTION: what report says, the reference for every format
self_samples() {
	jq -r --arg f "$1" '[.functions[] | select(.name == $f) | .self_samples] | add // 0' r.json
}

plan 17
build_prog sample_hot st -O2 -fno-omit-frame-pointer
limited "$CS" record -o s.data -- ./st stack >/dev/null 2>&1
"$CS" report -i s.data --json >r.json
spin=$(self_samples spin)
[ "$spin" -gt 0 ]
ok $? "the recording holds samples of spin ($spin)"

# gmon: gprof's histogram counts samples, one per sample
"$CS" export -i s.data --format=gmon -o s.gmon 2>err.txt
ok $? "gmon written"
gprof -b -p ./st s.gmon >flat.txt 2>/dev/null
grep -q '^Each sample counts as 1 samples\.$' flat.txt
ok $? "gprof reads it, counting samples"
is "$(awk '$NF == "spin" { printf "%d", $3 }' flat.txt)" "$spin" "gprof's self column of spin = its samples"
is "$(awk '$NF == "spin" { print NF }' flat.txt)" 4 "and no calls are made up (no calls column)"

# callgrind: one event, samples
"$CS" export -i s.data --format=callgrind -o cg.out
ok $? "callgrind written"
callgrind_annotate --threshold=100 cg.out >cg.txt 2>/dev/null
is "$(awk '{ for (i = 2; i <= NF; i++) if ($i ~ /:spin$/) { v = $1; gsub(",", "", v); print v; exit } }' cg.txt)" "$spin" \
	"callgrind_annotate's self samples of spin"
grep -q '^events: samples$' cg.out
ok $? "the event is named samples"

# folded: stacks with their samples
"$CS" export -i s.data --format=folded -o s.folded
ok $? "folded written"
is "$(awk '$1 ~ /;spin$/ { s += $2 } END { print s + 0 }' s.folded)" "$spin" \
	"folded lines ending in spin add up to its samples"
a=$(jq -r '[.functions[] | select(.name == "path_a") | .samples] | add // 0' r.json)
is "$(awk '$1 ~ /(^|;)path_a(;|$)/ { s += $2 } END { print s + 0 }' s.folded)" "$a" \
	"the lines through path_a add up to the samples with it on the stack"

# pprof: one value per sample, samples/count
"$CS" export -i s.data --format=pprof -o s.pb.gz
cat >profile.proto <<'PROTO'
syntax = "proto3";
package perftools.profiles;
message Profile {
  repeated ValueType sample_type = 1; repeated Sample sample = 2;
  repeated Location location = 4; repeated Function function = 5;
  repeated string string_table = 6; ValueType period_type = 11; int64 period = 12;
}
message ValueType { int64 type = 1; int64 unit = 2; }
message Sample { repeated uint64 location_id = 1; repeated int64 value = 2; }
message Location { uint64 id = 1; }
message Function { uint64 id = 1; int64 name = 2; }
PROTO
gzip -dc s.pb.gz | protoc --decode=perftools.profiles.Profile profile.proto >pb.txt 2>/dev/null
ok $? "pprof decodes"
# location N is function N: sum the value of the samples whose leaf is spin
got=$(awk '
	/^string_table:/ { s = substr($0, 16); gsub(/^"|"$/, "", s); str[ns++] = s }
	/^function \{/ { inf = 1; next }
	/^sample \{/ { ins = 1; loc = ""; next }
	/^\}/ { if (ins && loc != "") sum[loc] += v; inf = ins = 0; next }
	inf && $1 == "id:" { id = $2 }
	inf && $1 == "name:" { fname[id] = $2 }
	ins && $1 == "location_id:" && loc == "" { loc = $2 }
	ins && $1 == "value:" { v = $2 }
	END { for (l in sum) if (str[fname[l]] == "spin") print sum[l] }' pb.txt)
is "$got" "$spin" "the pprof samples ending in spin"
grep -q 'string_table: "samples"' pb.txt
ok $? "the sample type is samples"

# prf: the guide's statistical profile, hits = samples
"$CS" export -i s.data --format=prf -o s.prf
is "$(od -An -tu1 -j28 -N1 s.prf | tr -d ' ')" 1 "the .prf is statistical (type 1 at header offset 14)"
is "$("$CS" report -i s.prf --json 2>/dev/null |
	jq '[.functions[] | select(.name == "spin") | .self_ns] | add')" "$spin" \
	".prf hits of spin read back"

# chrome: events are calls, and there are none
"$CS" export -i s.data --format=chrome -o s.json >out.txt 2>err.txt
rc=$?
[ $rc -ne 0 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q 'timer samples' err.txt && [ ! -e s.json ]
ok $? "chrome refuses: exit $rc, one line, no file: $(cat err.txt)"
done_testing
