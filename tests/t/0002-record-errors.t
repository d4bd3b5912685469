#!/bin/sh
# Every mistake a user can make gets one line, a non-zero exit, no crash.
. "$(dirname "$0")/lib.sh"

plan 35

# one_line_error NAME EXPECTED-PATTERN COMMAND...: fails with one line.
one_line_error() {
	name=$1
	pattern=$2
	shift 2
	limited "$@" >out.txt 2>err.txt
	rc=$?
	ok $(( rc == 0 || rc >= 124 )) "$name: non-zero exit without crash (got $rc)"
	lines=$(wc -l < err.txt)
	if [ "$lines" -eq 1 ] && grep -q -- "$pattern" err.txt; then
		ok 0 "$name: one clear line"
	else
		ok 1 "$name: one clear line"
		sed 's/^/#   /' err.txt
	fi
}

build_prog basic plain -O2
build_prog basic pg -O2 -pg

one_line_error "missing program" "cannot find program 'no-such-prog'" "$CS" record -- no-such-prog
# without hooks a program is sampled (0600-*); statically linked, it cannot be
build_prog basic static -O2 -static
one_line_error "not instrumented, static" "is statically linked" "$CS" record -- ./static
# -static-pie has a dynamic section (it relocates itself) but no loader
build_prog basic static_pie -O2 -pg -static-pie
one_line_error "-pg -static-pie" "is statically linked" "$CS" record -- ./static_pie
one_line_error "not instrumented, --mode=trace" \
	"carries no profiling hooks, so it cannot be traced as built: add --patch .*, rebuild it with -pg, -pg -mfentry or -finstrument-functions" \
	"$CS" record --mode=trace -o p.data -- ./plain
limited "$CS" record -o p.data -- ./plain >/dev/null 2>err.txt
grep -q "'./plain' carries no profiling hooks; sampling it .*compile it with -pg or -finstrument-functions" err.txt
ok $? "without hooks, the fallback to sampling names the flags for exact calls"
printf '#!/bin/sh\necho hi\n' > script.sh; chmod +x script.sh
one_line_error "a script" \
	"not an ELF executable but a script for /bin/sh; .* callscope record -- /bin/sh ./script.sh \.\.\." \
	"$CS" record -- ./script.sh
printf 'echo hi\n' > bare.sh; chmod +x bare.sh
one_line_error "a script without #!" "'./bare.sh' is not an ELF executable; give callscope the compiled program" \
	"$CS" record -- ./bare.sh
one_line_error "unwritable output" "cannot write 'no/such/dir/x.data'" "$CS" record -o no/such/dir/x.data -- ./pg
mkfifo fifo
one_line_error "output is a FIFO" "cannot write 'fifo': it is not a regular file" "$CS" record -o fifo -- ./pg
[ -p fifo ]
ok $? "the FIFO is left as it was"
one_line_error "no data file" "run 'callscope record' first" "$CS" report -i missing.data
: > empty.data
one_line_error "empty data file" "'empty.data' is damaged: the file is empty" "$CS" report -i empty.data
head -c 100 /bin/sh > notdata.data
one_line_error "foreign file" "not a callscope data file" "$CS" info -i notdata.data
"$CS" record -o good.data -- ./pg > /dev/null 2>&1
size=$(stat -c %s good.data)
head -c $((size / 2)) good.data > half.data
one_line_error "truncated data file" "damaged: offset" "$CS" graph -i half.data
one_line_error "merge output is a FIFO" "cannot write 'fifo': it is not a regular file" \
	"$CS" merge -o fifo good.data good.data
[ -p fifo ]
ok $? "merge left the FIFO as it was"
one_line_error "unknown command" "'frobnicate' is not a callscope command" "$CS" frobnicate
one_line_error "bad sort key" "unknown sort key 'bogus'" "$CS" report -i good.data --sort=bogus
one_line_error "pid not recorded" "no thread in 'good.data' matches" "$CS" report -i good.data --pid=1
done_testing
