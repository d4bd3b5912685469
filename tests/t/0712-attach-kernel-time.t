#!/bin/sh
# record --pid samples CPU time in the kernel too, as record's own sampler
# does, and charges a system call's time to the function that made it: a
# program that spends a good part of its time reading /dev/zero shows
# read() with that part, beside perf's count of its system time.  The
# header says which time was sampled; where the kernel refuses to sample
# its own time (perf_event_paranoid 2, as a shim makes it here), user time
# is sampled and the header says that.
. "$(dirname "$0")/lib.sh"

needs_shims "$USER_ONLY_PERF"
plan 4
LIMIT=30
cat > reader.c <<'C'
#include <fcntl.h>
#include <unistd.h>
__attribute__((noinline)) void spin(void) { volatile long x = 0; for (long i = 0; i < 2000; i++) x += i; }
int main(void)
{
	static char buf[1 << 16];
	int fd = open("/dev/zero", O_RDONLY);
	while (access("quit", F_OK) != 0) {
		if (read(fd, buf, sizeof(buf)) < 0)
			return 1;
		spin();
	}
	return 0;
}
C
cc -O2 -g -o reader reader.c || exit 1
attach_sampled prof.txt 1 0.2 ./reader
rc=$?
skip_if_attach_refused $rc err.txt 3
ok $rc "record --pid ran"
if grep -q '^# CPU time in user space and in the kernel' prof.txt; then
	ok 0 "the header says the kernel's time is sampled"
	read_share=$(awk '!/^#/ && $4 == "read" { print int($1) }' prof.txt)
	[ "${read_share:-0}" -ge 15 ]
	ok $? "read() has its system call's time ($read_share % of the samples)"
else
	grep -q '^# CPU time in user space only' prof.txt
	ok $? "the header says only user time is sampled"
	skip "the kernel keeps its time from this user"
fi

rm -f quit
./reader &
prog=$!
sleep 0.2
LD_PRELOAD=$USER_ONLY_PERF limited "$CS" record --pid "$prog" --duration 0.5 > user.txt 2> err2.txt
rc=$?
touch quit
wait $prog
[ $rc -eq 0 ] && grep -q '^# CPU time in user space only: ' user.txt
ok $? "refused the kernel's time, it samples user time and says so"
