#!/bin/sh
# dlerror() tells the program what its last dlopen did, under library call
# tracing too.  Where dlopen returns, the runtime hooks the objects it
# loaded, and its name lookups (dlsym) replaced the thread's error: a
# failed dlopen's dlerror() said "no error" (libuv's uv_dlopen then
# reported success, and its dlerror test failed), and under --patch a
# dlopen that loaded left "libcallscope.so: undefined symbol:
# __register_frame" behind.
. "$(dirname "$0")/lib.sh"

plan 11
printf 'foobar\n' > bad.node
cc -O2 -g -fno-omit-frame-pointer -fPIC -shared -o plugin.so "$PROGS/sample_plugin.c"
cc -O2 -g -o main "$PROGS/dlopen_error.c" -ldl
cc -O2 -g -pg -o main-pg "$PROGS/dlopen_error.c" -ldl
cc -O2 -g -finstrument-functions -o main-fi "$PROGS/dlopen_error.c" -ldl
cc -O2 -g -DLOAD_ONLY -o load-only "$PROGS/dlopen_error.c" -ldl

is "$(./main ./plugin.so ./bad.node)" "done" "alone, both loads report what they did"
is "$(./load-only ./plugin.so ./bad.node)" "done" "alone, the load alone reports no error"

# runs NAME PROGRAM RECORD-OPTIONS...: PROGRAM says the same under record
runs() {
	name=$1 prog=$2
	shift 2
	limited "$CS" record -q -o $name.data "$@" -- ./$prog ./plugin.so ./bad.node \
		> out.txt 2> err.txt
	is "$?:$(cat out.txt)" "0:done" "$name: dlerror() reports each dlopen as alone"
}

runs trace-pg main-pg --mode=trace
runs trace-fi main-fi --mode=trace
runs count main-pg --mode=count
runs count-samples main-pg --mode=count --time-by=samples
runs flight main-fi --mode=flight
runs patch main --patch
limited "$CS" record -q -o patch-load.data --patch -- ./load-only ./plugin.so ./bad.node > out.txt 2> err.txt
is "$?:$(cat out.txt)" "0:done" "patch: a dlopen that loads leaves no error of the runtime's"
"$CS" report -i patch.data > patch.txt 2> patch.err
is "$?:$(cat patch.err)" "0:" "the recording of the patched run reads"
grep -q 'dlopen' patch.txt
ok $? "the patched run's dlopen calls are traced"
done_testing
