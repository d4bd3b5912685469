/*
 * A server-like program for the live tests: it loops until told to stop,
 * doing work_a while the file "mode" beside it does not say "b", and
 * work_b when it does.  It exits with status 7 when the file "quit"
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

static int mode_b(void)
{
	FILE *f = fopen("mode", "r");
	int c = f ? fgetc(f) : 'a';

	if (f)
		fclose(f);
	return c == 'b';
}

int main(void)
{
	unsigned long rounds = 0;

	signal(SIGTERM, on_term);
	FILE *r = fopen("ready.tmp", "w");
	if (r) {
		fprintf(r, "%d\n", (int)getpid());
		fclose(r);
		rename("ready.tmp", "ready");
	}
	while (!stop && access("quit", F_OK) != 0) {
		int b = mode_b();
		for (int i = 0; i < 50; i++) {
			if (b)
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
