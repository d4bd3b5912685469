#!/bin/sh
# By default a recorded process gets its control socket, and the runtime's
# thread that serves it, when it starts a thread of its own: a
# single-threaded program keeps glibc's single-threaded paths (any second
# thread turns them off for good) and has no socket; live says why and what
# to do.  --live gives every process both from the start, --no-live never.
# A forked child of a threaded parent has one thread: it too waits for a
# thread of its own.  Traced (the sampler off) and sampled (on) alike.
. "$(dirname "$0")/lib.sh"

plan 24
build_prog live_when_threaded traced -pg -O1
build_prog live_when_threaded sampled -O1
mkdir -m 700 xdg
XDG_RUNTIME_DIR="$WORK/xdg"
export XDG_RUNTIME_DIR

# pid_of WORD: the pid on the last line of out.txt that says WORD,
# waiting (up to 15 s) for it
pid_of() {
	wait_for_line out.txt " $1"
	awk -v w="$1" '$2 == w { p = $1 } END { print p }' out.txt
}

# has_socket PID: whether PID's control socket is there
has_socket() { [ -S "xdg/callscope/$1.sock" ]; }

# wait_socket PID: waits (up to 10 s) for PID's control socket
wait_socket() {
	i=0
	while [ $i -lt 100 ] && ! has_socket "$1"; do
		sleep 0.1
		i=$((i + 1))
	done
}

# recording DATA OPTION... -- PROGRAM STEP...: records PROGRAM's steps
# into DATA in the background, its lines into out.txt, the recorder's
# pid in $rec.  The last recording's out.txt goes first: the background
# shell empties it only when it gets to run, and pid_of would read the
# last program's lines meanwhile.
recording() {
	data=$1
	shift
	rm -f out.txt err.txt
	LIMIT=60 limited "$CS" record -q -o "$data" "$@" > out.txt 2> err.txt &
	rec=$!
}

# finish: lets the program end and waits for the recording
finish() {
	touch release
	wait $rec
	rc=$?
	rm -f release go
	return $rc
}

# a single-threaded program, default setting: no socket, no second thread
recording a.data -- ./traced count wait:release
pid=$(pid_of threads)
is "$(awk '$2 == "threads" { print $3 }' out.txt)" 1 "a single-threaded program sees one thread"
has_socket "$pid"
ok $((!$?)) "and has no control socket"
"$CS" live "$pid" status > live.txt 2>&1
ok $((!$?)) "live status fails on it"
echo "# $(cat live.txt)"
is "$(wc -l < live.txt | tr -d ' ')" 1 "in one line"
grep -q "no control socket.*second thread.*--live" live.txt
ok $? "which says why and names --live"
finish
is "$?:$(calls_of a.data main)" "0:1" "the program ends as usual, recorded"

# a program that starts a thread gets its socket then, sampler off or on
for prog in traced sampled; do
	recording b.data -- ./$prog count wait:go thread wait:release
	pid=$(pid_of threads)
	has_socket "$pid"
	ok $((!$?)) "$prog: no socket before the program's first thread"
	touch go
	pid_of started > /dev/null
	wait_socket "$pid"
	has_socket "$pid"
	ok $? "$prog: its first pthread_create brings the socket"
	is "$("$CS" live "$pid" status 2> /dev/null | sed -n 's/^pid=//p')" "$pid" \
		"$prog: live status answers"
	finish
	ok $? "$prog: the program ends with status 0"
done
has_socket "$pid"
ok $((!$?)) "the socket goes at exit"

# --live: a single-threaded program has the socket and the thread from the start
recording c.data --live -- ./traced count wait:release
pid=$(pid_of threads)
is "$(awk '$2 == "threads" { print $3 }' out.txt)" 2 "--live: the program sees the control thread"
is "$("$CS" live "$pid" status 2> /dev/null | sed -n 's/^pid=//p')" "$pid" \
	"--live: live status answers a single-threaded program"
finish

# --no-live: not even a threaded program gets one
recording d.data --no-live -- ./traced thread count wait:release
pid=$(pid_of threads)
is "$(awk '$2 == "threads" { print $3 }' out.txt)" 2 "--no-live: the program's thread alone is added"
has_socket "$pid"
ok $((!$?)) "--no-live: no socket after the program's thread"
"$CS" live "$pid" status > live.txt 2>&1
grep -q "recorded with --no-live" live.txt
ok $? "--no-live: live says it was recorded so"
finish

# fork: the threaded parent's child has one thread, and no socket until
# it starts a thread of its own
recording e.data -- ./traced thread fork count wait:go thread wait:release
child=$(pid_of forked)
wait_for_line out.txt "^$child threads"
parent=$(awk -v c="$child" '$2 == "started" && $1 != c { print $1; exit }' out.txt)
is "$(awk -v c="$child" '$1 == c && $2 == "threads" { print $3 }' out.txt)" 1 \
	"the child of fork sees one thread"
has_socket "$parent" && ! has_socket "$child"
ok $? "the parent has its socket, the child none"
touch go
wait_for_line out.txt "^$child started"
wait_socket "$child"
is "$("$CS" live "$child" status 2> /dev/null | sed -n 's/^pid=//p')" "$child" \
	"the child's first thread brings its own socket"
finish
ok $? "parent and child end with status 0"
done_testing
