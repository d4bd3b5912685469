#!/bin/sh
# CPU-time samples count the kernel's time on the thread's behalf, so a
# sampling period can end inside execve(); the event's signal would then
# reach the new image before it has a handler, and SIGTRAP kills it.  The
# runtime stops the thread's event before every exec and starts it again
# when the exec fails.  At 20 000 Hz, with CPU time in the kernel right
# before each exec, a program that execs itself 20 times by each way the C
# library offers (and by the raw system call, and from a vfork()'s child)
# must end normally with every image recorded; a run whose exec failed, and
# a vfork()'s parent, must go on being sampled (200 ms computing after it:
# at least 100 samples at 999 Hz).  Counting the kernel's time without the
# stops killed exec_self's chain within 15 images, in every run.
. "$(dirname "$0")/lib.sh"

kinds="execv execve execvp execvpe execl execle execlp fexecve execveat syscall"
plan 16
build_prog exec_kinds ek -O2
for kind in $kinds; do
	limited "$CS" record --mode=sample --freq=20000 -o $kind.data -- ./ek $kind 20 \
		> out.txt 2> err.txt
	rc=$?
	is "$rc $(cat out.txt) $("$CS" info -i $kind.data --json | jq '.processes | length')" \
		"0 done 21" "$kind: 20 execs end normally, 21 images recorded"
done
for kind in vfork fail; do
	limited "$CS" record --mode=sample -o $kind.data -- ./ek $kind 1 > out.txt 2> err.txt
	is "$?/$(cat out.txt)" "0/done" "$kind: the program ends normally"
	samples=$("$CS" report -i $kind.data --json |
		jq '[.functions[] | select(.name == "in_user") | .self_samples] | add // 0')
	ok "$((samples < 100))" "$kind: sampling goes on after it ($samples samples of 200 ms computing)"
done
# the default source counts the kernel's time where perf_event_paranoid
# lets it (root, or a setting below 2)
build_prog user_and_system uas -O2
limited "$CS" record --mode=sample -o uas.data -- ./uas 100 > /dev/null 2> err.txt
clock=$("$CS" report -i uas.data --json | jq -r .sample_cpu_time)
if [ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -lt 2 ]; then
	is "$clock" user+system "the default samples count the kernel's time here"
else
	skip "perf_event_paranoid keeps the kernel's time from this user's events"
fi
"$CS" report -i uas.data | head -1 | grep -q "^# samples: [0-9]* of $(
	[ "$clock" = user ] && echo "user CPU time" || echo "CPU time, user and system")"
ok $? "the report's header says so"
done_testing
