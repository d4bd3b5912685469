#!/bin/sh
# Failures injected where a test cannot make them happen for real
# (tests/inject/fail_io.c): the disk fills up while threads record, a
# buffer's mapping is refused, the sealed file cannot be written.  Nothing
# crashes, each failure is named, and recorded + lost == what the program
# did.
. "$(dirname "$0")/lib.sh"
needs_shims "$FAIL_IO"

plan 10

build_prog fault_threads ft -O2 -finstrument-functions
limited "$CS" record --mode=trace --outside-freq=0 -o full.data -- ./ft 3 200000 > /dev/null 2>&1
all=$("$CS" info -i full.data --json | jq .events)

# failing CALL:SKIP:ERRNO PROGRAM OUTPUT: records ./ft with the failures.
failing() {
	CALLSCOPE_FAIL_IO=$1 CALLSCOPE_FAIL_IO_IN=$2 LD_PRELOAD=$FAIL_IO \
		limited "$CS" record --mode=trace --outside-freq=0 -o "$3" -- ./ft 3 200000 > /dev/null 2> err.txt
}

# room for every header page, and for two windows of the four threads
failing fallocate:2:ENOSPC:65536 ft space.data
is "$?" 0 "no space to grow: the program runs to its end"
grep -q "counted as lost: No space left on device" err.txt
ok $? "no space to grow: the warning names the reason" || sed 's/^/#   /' err.txt
conserved space.data "$all" "no space to grow"

# the header pages are mapped, and main's window; every worker's is refused
failing mmap:1:ENOMEM:65536 ft map.data
is "$?" 0 "a refused mapping: the program runs to its end"
grep -q "Cannot allocate memory" err.txt
ok $? "a refused mapping: the warning names the reason" || sed 's/^/#   /' err.txt
conserved map.data "$all" "a refused mapping"

# the disk fills up while record writes the data file
failing write:0:ENOSPC callscope seal.data
is "$?" 1 "the data file cannot be written: record fails"
staging=$(ls -d .callscope-* 2> /dev/null | head -n 1)
grep -q "cannot write 'seal.data': No space left on device; the recording stays in" err.txt
ok $? "and says where the recording stays" || sed 's/^/#   /' err.txt
[ ! -e seal.data ] && ! ls seal.data.tmp-* > /dev/null 2>&1
ok $? "no data file and no temporary file"
conserved "$staging" "$all" "the staging directory"
done_testing
