#!/bin/sh
# A handler installed by signal() in a program built with _POSIX_C_SOURCE
# (which glibc's header sends to __sysv_signal), or by sysv_signal or
# bsd_signal, runs as "<signal N>" as sigaction's and signal's do; a
# System V handler still runs once: its signal's action is the default
# again afterwards, as the program can ask.
. "$(dirname "$0")/lib.sh"

plan 4
cat > sysv.c <<'C'
#include <signal.h>
#include <stdio.h>
static volatile int sink;
__attribute__((noinline)) void inner(void) { sink++; }
void handler(int sig) { (void)sig; inner(); }
int main(void)
{
	signal(SIGUSR1, handler);
	raise(SIGUSR1);
	/* a System V handler was reset to the default as it ran */
	printf("%s\n", signal(SIGUSR1, SIG_IGN) == SIG_DFL ? "reset" : "kept");
	return 0;
}
C
cat > kin.c <<'C'
#define _GNU_SOURCE
#include <signal.h>
static volatile int sink;
__attribute__((noinline)) void inner(void) { sink++; }
void handler(int sig) { (void)sig; inner(); }
sighandler_t bsd_signal(int, sighandler_t);
int main(void)
{
	sysv_signal(SIGUSR1, handler);
	raise(SIGUSR1);
	bsd_signal(SIGUSR2, handler);
	raise(SIGUSR2);
	raise(SIGUSR2);
	return 0;
}
C
gcc -O0 -pg -D_POSIX_C_SOURCE=200809L -o sysv sysv.c && gcc -O0 -pg -o kin kin.c || exit 1
out=$(limited "$CS" record -o s.data -- ./sysv 2> /dev/null)
is "$out" "reset" "a System V handler still runs once"
is "$(call_paths s.data | grep -c '^/main/raise/<signal 10>/handler/inner 1$')" 1 \
	"signal() under _POSIX_C_SOURCE: the handler runs as <signal 10>"
limited "$CS" record -o k.data -- ./kin > /dev/null 2>&1
is "$(call_paths k.data | grep -c '^/main/raise/<signal 10>/handler/inner 1$')" 1 \
	"sysv_signal: the handler runs as <signal 10>"
is "$(call_paths k.data | grep -c '^/main/raise/<signal 12>/handler/inner 2$')" 1 \
	"bsd_signal: the handler runs as <signal 12>, each time"
