#!/bin/sh
# A program the runtime cannot enter runs unrecorded, its time in no
# profile: the exec that starts it says so, one line on stderr naming the
# program and why (statically linked; setuid to another user; an
# environment without callscope's settings), and nothing for a program
# that is recorded, a script, or a name the shell's path search tries and
# does not find.
. "$(dirname "$0")/lib.sh"

plan 7
cat > burn.c <<'C'
#include <stdlib.h>
int main(int argc, char **argv)
{
	volatile double x = 0;
	for (long i = 0; i < (argc > 1 ? atol(argv[1]) : 1000000); i++)
		x += (double)i;
	return 0;
}
C
cc -O2 -o burn_dyn burn.c
static=1
cc -O2 -static -o burn_static burn.c 2> /dev/null || static=0
cp burn_dyn burn_suid
suid=0
chown nobody burn_suid 2> /dev/null && chmod u+s burn_suid && [ "$(id -u)" -ne "$(id -u nobody)" ] && suid=1
printf '#!/bin/sh\n./burn_dyn\n' > script.sh
chmod +x script.sh

# says TEXT WANT NAME: TEXT holds WANT
says() {
	printf '%s\n' "$1" | grep -qF -- "$2"
	rc=$?
	ok $rc "$3"
	[ $rc -eq 0 ] || printf '# got: %s\n' "$1" >&2
}

# warned COMMAND: the lines of stderr from a sampled run of sh -c COMMAND
warned() {
	limited "$CS" record --mode=sample -o r.data -- sh -c "$1" > /dev/null 2> err.txt
	grep 'whose own time is not recorded' err.txt
}

if [ $static = 1 ]; then
	says "$(warned ./burn_static)" "execs './burn_static', whose own time is not recorded: it is statically linked" \
		"a static program: named, and why"
else
	skip "no static libc to link with"
fi
says "$(warned 'env -i ./burn_dyn')" "execs './burn_dyn', whose own time is not recorded: its environment does not carry" \
	"env -i: named, and why"
if [ $suid = 1 ]; then
	says "$(warned ./burn_suid)" "execs './burn_suid', whose own time is not recorded: it is setuid or setgid" \
		"setuid to another user: named, and why"
else
	skip "cannot make a file setuid to another user here"
fi
is "$(warned './burn_dyn; ./script.sh; no_such_program_here 2> /dev/null; ls > /dev/null')" "" \
	"recorded programs, a script, a name not found: nothing said"
is "$("$CS" info -i r.data --json | jq '.processes | length')" 5 \
	"... and each of those programs recorded (sh, burn_dyn, the script's sh and its burn_dyn, ls)"
limited "$CS" record --mode=sample -o s.data -- sh -c './burn_dyn 20000000' > /dev/null 2> err.txt
is "$?:$(grep -c 'not recorded' err.txt)" "0:0" "a recorded child: it runs, nothing said"
is "$("$CS" info -i s.data --json | jq '[.processes[].exe | split("/") | last] | join(" ")' -r)" \
	"dash burn_dyn" "... and is recorded"
done_testing
