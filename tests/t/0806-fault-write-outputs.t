#!/bin/sh
# Every file the readers write (an export, a merge, an HTML page, gprof
# -s's gmon.sum, the link-order files) goes in under a temporary name and
# is renamed only once whole: when writing fails (here under a file size
# limit of 0, so every write fails with EFBIG) each says so in the same
# one line, exits 1 and leaves neither the file nor a temporary one.
. "$(dirname "$0")/lib.sh"

plan 18

build_prog cycle cyc -O0 -pg
limited "$CS" record -o rec.data -- ./cyc > /dev/null 2>&1
./cyc > /dev/null 2>&1

# fails_cleanly OUT NAME COMMAND...: COMMAND, which writes OUT, under ulimit -f 0
fails_cleanly() {
	out=$1
	name=$2
	shift 2
	# the limit holds for the command alone: its messages go through a
	# pipe, and its exit status after them
	(ulimit -f 0; limited "$@" 2>&1 > /dev/null; echo "exit $?") | cat > both.txt
	sed '$d' both.txt > err.txt
	is "$(tail -n 1 both.txt)" "exit 1" "$name: exit status 1"
	want="callscope: cannot write '$out': File too large; nothing was written there: make room, or give another path"
	if [ "$(wc -l < err.txt)" -eq 1 ] && [ "$(cat err.txt)" = "$want" ]; then
		ok 0 "$name: the one line every writer says"
	else
		ok 1 "$name: the one line every writer says"
		sed 's/^/#   /' err.txt
	fi
	[ ! -e "$out" ] && ! ls "$out".tmp* > /dev/null 2>&1
	ok $? "$name: no file and no temporary file"
}

fails_cleanly out.json "export" "$CS" export --format=chrome -i rec.data -o out.json
fails_cleanly m.data "merge" "$CS" merge -o m.data rec.data rec.data
fails_cleanly k.data "merge --keep-events" "$CS" merge --keep-events -o k.data rec.data rec.data
fails_cleanly page.html "html" "$CS" html -i rec.data -o page.html
fails_cleanly gmon.sum "gprof -s" "$CS" gprof -s cyc gmon.out
fails_cleanly ord.lor "optimize" "$CS" optimize -i rec.data -o ord
done_testing
