#!/bin/sh
# The runtime's own work as the process ends (measuring the hooks again,
# writing the end) is no part of the program: no sample may be charged to
# the program for it.  Before, its calls into libc (mmap of the scratch
# stream, munmap) were sampled and shown under exit(), beneath the
# runtime's atexit handler, and beside a trace as time in libc without hooks.
# At 4999 Hz the measurement took a sample in most runs; four runs each.
. "$(dirname "$0")/lib.sh"

plan 2
build_prog sample_hot traced -O2 -pg

# FIGURE of each of four runs recorded with OPTIONS, on one line
per_run() {
	figure=$1 line=""
	shift
	for i in 1 2 3 4; do
		limited "$CS" record "$@" -o r$i.data -- ./traced flat 20 > /dev/null 2>&1
		line="$line $("$CS" report -i r$i.data --json | jq "$figure")"
	done
	echo "$line"
}

# The runtime's exit work runs in its atexit handler, which libc calls
# from __cxa_finalize; the program's own exit (the loader's _dl_fini
# before it) is sampled as perf would sample it
under_exit=$(per_run '[.functions[] | select(.name == "__cxa_finalize") | .samples] | add // 0' \
	--sample --freq 4999)
echo "# samples under the runtime's atexit handler in each run:$under_exit"
[ "$(echo $under_exit | tr -d ' 0')" = "" ]
ok $? "--sample beside a trace: no sample under the runtime's exit work"

unseen=$(per_run '[.unhooked.objects[] | select(.object | test("/libc[.]so")) | .unseen] | add // 0' \
	--outside-freq=4999)
echo "# samples in libc without hooks, outside any traced call, in each run:$unseen"
# One sample in the four runs may be there: the program's own way out in
# libc after main returns (__libc_start_call_main, __run_exit_handlers,
# _dl_fini's mutex) is such time, as perf would sample it, about one run
# in 75 at this rate.  The runtime's exit work took one in most runs.
[ "$(echo $unseen | awk '{ for (i = 1; i <= NF; i++) s += $i; print s + 0 }')" -le 1 ]
ok $? "--outside-freq: the runtime's exit work is not time in code without hooks"
done_testing
