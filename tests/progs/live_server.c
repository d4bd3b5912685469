/*
 * A server-like program for the live tests: it loops until told to stop,
 * doing work_a while the file "mode" beside it does not say "b" or "i",
 * work_b when it says "b", and nothing when it says "i" (idle).  Each time
 * it takes up a new mode it writes the mode's letter into "seen": a round
 * never straddles that point, so a test that waits for it knows no work of
 * the old mode is under way.  It exits with status 7 when the file "quit"
 * appears, or on SIGTERM, and writes its pid into "ready" once it runs.
 */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static volatile sig_atomic_t stop;
static volatile unsigned long sink;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

__attribute__((noinline)) static void work_a(void)
{
	for (int i = 0; i < 20000; i++)
		sink += (unsigned long)i * 3;
}

__attribute__((noinline)) static void work_b(void)
{
	for (int i = 0; i < 20000; i++)
		sink ^= (unsigned long)i * 7;
}

/* The one call an idle round makes: a thread notices a stop, start or
 * reset at its next hook, and an idle server should still notice. */
__attribute__((noinline)) static void idle(void)
{
	sink++;
}

/* The mode the file "mode" asks for: 'a' without the file, LAST while it
 * is empty (a shell's "echo b > mode" truncates it before writing). */
static int read_mode(int last)
{
	FILE *f = fopen("mode", "r");
	int c = f ? fgetc(f) : 'a';

	if (f)
		fclose(f);
	if (c == EOF)
		return last ? last : 'a';
	return c == 'b' || c == 'i' ? c : 'a';
}

/* Writes MODE into "seen", whole or not at all. */
static void say_seen(int mode)
{
	FILE *f = fopen("seen.tmp", "w");

	if (f) {
		fprintf(f, "%c\n", mode);
		fclose(f);
		rename("seen.tmp", "seen");
	}
}

int main(void)
{
	unsigned long rounds = 0;
	int last = 0;

	signal(SIGTERM, on_term);
	FILE *r = fopen("ready.tmp", "w");
	if (r) {
		fprintf(r, "%d\n", (int)getpid());
		fclose(r);
		rename("ready.tmp", "ready");
	}
	while (!stop && access("quit", F_OK) != 0) {
		int mode = read_mode(last);
		if (mode != last)
			say_seen(mode);
		last = mode;
		if (mode == 'i')
			idle();
		for (int i = 0; i < 50 && mode != 'i'; i++) {
			if (mode == 'b')
				work_b();
			else
				work_a();
		}
		rounds++;
		usleep(2000);
	}
	printf("rounds %s\n", rounds ? "many" : "none");
	return 7;
}
