#!/bin/sh
# An object loaded by a relative name keeps its name in the recording
# after the program changes directory: the runtime describes an object
# loaded later when it notices it or at exit, by the path the kernel
# gives its mapping, not by the name joined to the directory of that
# moment.  Before, its functions were shown as addresses, with "cannot
# read '<new directory>/sub/plugin.so'".  So is one loaded by an absolute
# name through "..", as gcc loads its linker plugin
# (/usr/bin/../lib/bfd-plugins/...): by its file's own path, which its
# package's list of files has.
. "$(dirname "$0")/lib.sh"

plan 10
mkdir sub elsewhere
cc -O2 -g -fno-omit-frame-pointer -fPIC -shared -o sub/plugin.so "$PROGS/sample_plugin.c"
cc -O2 -g -fno-omit-frame-pointer -o main "$PROGS/dlopen_then_chdir.c" -ldl
cc -O2 -g -pg -o main-pg "$PROGS/dlopen_then_chdir.c" -ldl

# recorded NAME PROGRAM RECORD-OPTIONS...: PROGRAM runs unchanged, and the
# report of its recording reads every object's file
recorded() {
	name=$1 prog=$2
	shift 2
	limited "$CS" record "$@" -o $name.data -- ./$prog "${PLUGIN:-./sub/plugin.so}" "$WORK/elsewhere" \
		> out.txt 2> /dev/null
	is "$?:$(cat out.txt)" "0:done" "$name: the program runs unchanged"
	"$CS" report -i $name.data --json > $name.json 2> $name.err
	is "$(cat $name.err)" "" "$name: the report reads the plugin's file (no warning)"
}

recorded sample main --mode=sample
is "$(jq -r '[.functions[] | select(.self_samples > 0)] | max_by(.self_samples) | "\(.name) \(.object)"' sample.json)" \
	"plugin_hot $WORK/sub/plugin.so" "sample: the plugin's function is named, with its file's path"
recorded samples-timed main-pg --mode=count --time-by=samples --no-libcall
recorded trace main-pg --no-libcall
PLUGIN="$WORK/elsewhere/../sub/plugin.so" recorded dotdot main --mode=sample
is "$(jq -r '[.functions[] | select(.name == "plugin_hot") | .object] | unique | join(" ")' dotdot.json)" \
	"$WORK/sub/plugin.so" "through \"..\": the plugin's object is its file's own path"
done_testing
