#!/bin/sh
# record --quiet prints none of its own lines but warnings and errors, and
# --log=FILE appends them (and the runtime's) to FILE: either way the
# program's stderr holds only what the program wrote, as test suites that
# compare it need.
. "$(dirname "$0")/lib.sh"
needs_shims "$FAIL_IO"

plan 13
build_prog chdir_then_spawn app -O2 -pg
usage="usage: chdir_then_spawn DIR (an existing directory)"

limited "$CS" record -o q.data -- ./app > /dev/null 2> err.txt
grep -q "^callscope: recorded" err.txt
ok $? "without --quiet, record says what it recorded on stderr"

limited "$CS" record --quiet -o q.data -- ./app > /dev/null 2> err.txt
is "$?" 2 "--quiet: the program's exit status is passed on"
is "$(cat err.txt)" "$usage" "--quiet: stderr holds the program's line alone"
limited "$CS" record -q --patch -o q.data -- ./app > /dev/null 2> err.txt
is "$(cat err.txt)" "$usage" "-q: nor does saying that the hooks are used instead of --patch"

limited "$CS" record --log=rec.log -o l.data -- ./app > /dev/null 2> err.txt
is "$?" 2 "--log: the program's exit status is passed on"
is "$(cat err.txt)" "$usage" "--log: stderr holds the program's line alone"
mkdir d
limited "$CS" record --log=rec.log --mode=count -o l.data -- ./app d > /dev/null 2> err.txt
is "$(cat err.txt)" "" "--log: nothing on stderr when the program writes nothing there"
is "$(grep -c "^callscope: recorded" rec.log)" 2 "--log: each run's summary is appended"

# the runtime's own warnings, written from inside the program, go there too
build_prog fault_threads ft -O2 -finstrument-functions
CALLSCOPE_FAIL_IO=fallocate:2:ENOSPC:65536 CALLSCOPE_FAIL_IO_IN=ft LD_PRELOAD=$FAIL_IO \
	limited "$CS" record --log=rt.log -o ft.data -- ./ft 3 200000 > /dev/null 2> err.txt
is "$(cat err.txt)" "" "--log: the runtime's warnings are not on the program's stderr"
grep -q "counted as lost: No space left on device" rt.log
ok $? "--log: they are in the log" || sed 's/^/#   /' rt.log

limited "$CS" record --log=d -o l.data -- ./app > /dev/null 2> err.txt
is "$?:$(cat err.txt)" "1:callscope: cannot open the log 'd': Is a directory" \
	"a log that is a directory fails before the program runs"
mkfifo fifo
limited "$CS" record --log=fifo -o l.data -- ./app > /dev/null 2> err.txt
is "$?:$(cat err.txt)" "1:callscope: cannot open the log 'fifo': No such device or address" \
	"a log that is a FIFO nobody reads fails before the program runs, without waiting"
limited "$CS" record --log=/dev/null -o l.data -- ./app > /dev/null 2> err.txt
is "$?:$(cat err.txt)" "2:$usage" "--log=/dev/null drops record's lines"
done_testing
