#!/bin/sh
# export --format=pprof: the file is gzip'd profile.proto; decoded with
# protoc against the fields of pprof's schema, it names the functions,
# and the time of the samples ending in a function adds up to its self
# time, their calls to its calls.
. "$(dirname "$0")/lib.sh"

if ! command -v protoc >/dev/null 2>&1; then
	echo "1..0 # skip protoc (protobuf-compiler) is not installed"
	exit 0
fi

# The fields of github.com/google/pprof proto/profile.proto that the
# export writes, with the same numbers.
cat >profile.proto <<'PROTO'
syntax = "proto3";
package perftools.profiles;
message Profile {
  repeated ValueType sample_type = 1;
  repeated Sample sample = 2;
  repeated Mapping mapping = 3;
  repeated Location location = 4;
  repeated Function function = 5;
  repeated string string_table = 6;
  int64 time_nanos = 9;
  int64 duration_nanos = 10;
  ValueType period_type = 11;
  int64 period = 12;
  repeated int64 comment = 13;
  int64 default_sample_type = 14;
}
message ValueType { int64 type = 1; int64 unit = 2; }
message Sample { repeated uint64 location_id = 1; repeated int64 value = 2; }
message Mapping {
  uint64 id = 1; uint64 memory_start = 2; uint64 memory_limit = 3; uint64 file_offset = 4;
  int64 filename = 5; int64 build_id = 6; bool has_functions = 7; bool has_filenames = 8;
  bool has_line_numbers = 9; bool has_inline_frames = 10;
}
message Location { uint64 id = 1; uint64 mapping_id = 2; uint64 address = 3; repeated Line line = 4; }
message Line { uint64 function_id = 1; int64 line = 2; }
message Function { uint64 id = 1; int64 name = 2; int64 system_name = 3; int64 filename = 4; int64 start_line = 5; }
PROTO

# leaf_sums TEXT INDEX: per function, the sum of value[INDEX] over the
# samples whose first (leaf) location is that function's.  The export
# gives location N the function N.
leaf_sums() {
	awk -v want="$2" '
		/^string_table:/ { s = substr($0, 16); gsub(/^"|"$/, "", s); str[ns++] = s }
		/^function \{/ { inf = 1; next }
		/^sample \{/ { ins = 1; loc = ""; nv = 0; next }
		/^\}/ { if (ins && loc != "") sum[loc] += val[want]; inf = ins = 0; next }
		inf && $1 == "id:" { id = $2 }
		inf && $1 == "name:" { fname[id] = $2 }
		ins && $1 == "location_id:" && loc == "" { loc = $2 }
		ins && $1 == "value:" { val[nv++] = $2 }
		END { for (l in sum) print str[fname[l]], sum[l] }' "$1" | sort
}

plan 6
build_prog export_work work -O2 -pg -fno-inline -fno-optimize-sibling-calls
limited "$CS" record -o w.data -- ./work 20 >/dev/null 2>&1
"$CS" export -i w.data --format=pprof -o prof.pb.gz
ok $? "export writes the profile"
gzip -dc prof.pb.gz >prof.pb
ok $? "it is gzip"
protoc --decode=perftools.profiles.Profile profile.proto <prof.pb >prof.txt 2>err.txt
ok $? "protoc decodes it as a Profile"
"$CS" report -i w.data --json >r.json
# (a function whose self time the hooks' cost took to zero, as on a busy
# machine, is left out on both sides)
is "$(leaf_sums prof.txt 1 | awk '$2 > 0')" \
   "$(jq -r '.functions[] | "\(.name) \(.self_ns)"' r.json | awk '$2 > 0' | sort)" \
   "time of the samples ending in each function = its self time"
is "$(leaf_sums prof.txt 0 | awk '$2 > 0')" \
   "$(jq -r '.functions[] | "\(.name) \(.calls)"' r.json | awk '$2 > 0' | sort)" \
   "calls of the samples ending in each function = its calls"
grep -q 'string_table: "nanoseconds"' prof.txt
ok $? "sample types named"
done_testing
