#!/bin/sh
# export, merge and diff on bad command lines and bad inputs: one line
# on stderr and the documented exit status, no partial output file.
. "$(dirname "$0")/lib.sh"

# fails STATUS NAME COMMAND...: COMMAND exits STATUS with one stderr line
fails() {
	want=$1
	name=$2
	shift 2
	"$@" >/dev/null 2>err.txt
	rc=$?
	[ "$rc" -eq "$want" ] && [ "$(wc -l <err.txt)" -eq 1 ]
	ok $? "$name: exit $rc: $(cat err.txt)"
}

plan 11
build_prog basic bin -O2 -pg
limited "$CS" record -o b.data -- ./bin 10 >/dev/null 2>&1

fails 2 "no format" "$CS" export -i b.data
fails 2 "unknown format" "$CS" export -i b.data --format=xml
fails 2 "bad --value" "$CS" export -i b.data --format=folded --value=bytes
fails 1 "missing input" "$CS" export -i none.data --format=gmon -o g.out
[ ! -e g.out ]
ok $? "no output written for a missing input"
fails 1 "unwritable output" "$CS" export -i b.data --format=gmon -o no/such/dir/g.out
fails 2 "merge without -o" "$CS" merge b.data b.data
fails 1 "merge of a damaged file" sh -c "head -c 100 b.data >cut.data; '$CS' merge -o m.data b.data cut.data"
fails 2 "diff of one file" "$CS" diff b.data
printf 'not a profile at all' >junk.prf
fails 1 "diff of a file that is neither format" "$CS" diff b.data junk.prf
"$CS" export -i b.data --format=gmon -o b.data.gmon --pid 999999 2>err.txt
[ $? -eq 1 ] && grep -q 'no thread' err.txt
ok $? "--pid matching nothing is refused"
done_testing
