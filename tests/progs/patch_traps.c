/*
 * Functions only a trap can patch (a one-byte body packed against the
 * next function, a loop head in the first bytes), called where a trap is
 * hardest on them: from a thread that blocked every signal, from a signal
 * handler whose mask holds every signal, and beside the program's own
 * SIGTRAP handler, which must still get the program's own traps (raise()
 * and an int3 of its own).  Prints what it counted: a patched run must
 * print the same.
 *
 * usage: patch_traps [ROUNDS]     (0: no handler of its own, and its int3
 *                               ends it with SIGTRAP as it would unpatched)
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* trap_one: `ret` with trap_two right after it; trap_loop: a loop head
 * one instruction in */
__asm__(".text\n"
	".globl trap_one\n.type trap_one,@function\n"
	"trap_one:\n"
	"	ret\n"
	".size trap_one, .-trap_one\n"
	".globl trap_two\n.type trap_two,@function\n"
	"trap_two:\n"
	"	xor %eax, %eax\n"
	"	ret\n"
	".size trap_two, .-trap_two\n"
	".globl trap_loop\n.type trap_loop,@function\n"
	"trap_loop:\n"
	"	xor %eax, %eax\n"
	"1:	inc %eax\n"
	"	cmp %edi, %eax\n"
	"	jl 1b\n"
	"	ret\n"
	".size trap_loop, .-trap_loop\n");

void trap_one(void);
int trap_two(void);
int trap_loop(int n);

static volatile sig_atomic_t own_traps, usr1_calls;

static void on_own_trap(int sig)
{
	(void)sig;
	own_traps++;
}

static void on_usr1(int sig)
{
	(void)sig;
	trap_one();
	usr1_calls += trap_loop(2);
}

static void *blocked_thread(void *arg)
{
	sigset_t all;
	long n = 0;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (int i = 0; i < 100; i++) {
		trap_one();
		n += trap_loop(3) + trap_two();
	}
	return (void *)n;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 1;
	struct sigaction sa;
	pthread_t t;
	void *from_thread;
	long sum = 0;

	if (rounds == 0) {
		trap_one();
		__asm__ volatile("int3");
		return 0;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_own_trap;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTRAP, &sa, NULL);
	sa.sa_handler = on_usr1;
	sigfillset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);

	for (int r = 0; r < rounds; r++) {
		trap_one();
		sum += trap_two() + trap_loop(5);
		raise(SIGTRAP);
		__asm__ volatile("int3");
		raise(SIGUSR1);
	}
	pthread_create(&t, NULL, blocked_thread, NULL);
	pthread_join(t, &from_thread);
	printf("sum %ld thread %ld own traps %d usr1 %d\n", sum, (long)from_thread,
	       (int)own_traps, (int)usr1_calls);
	return 0;
}
