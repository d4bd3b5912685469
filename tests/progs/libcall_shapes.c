/*
 * libcall_shapes MODE: library calls of every shape, with known counts.
 * Every mode first calls strlen 100 times from main, snprintf 10 times
 * from format() and sqrt 7 times, then:
 *   plain     nothing more
 *   longjmp   5 rounds of setjmp (returning twice) and longjmp from jump()
 *   fork      fork(); the child calls strlen 3 times and _exit(0)
 *   vfork     vfork(); the child _exits at once
 *   exit      exit(3) from quit(), whose atexit handler at_end() calls
 *             strlen once (nested under exit)
 *   abort     abort() from die_now()
 *   thread    a thread calls strlen 4 times and ends with pthread_exit
 *   dlopen    loads PLUGIN (libcall_plugin.c, with hooks) and calls its
 *             plugin_work 4 times, which calls strlen twice each
 * The output line is the same with and without profiling.
 */
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile size_t sink;
static volatile double arg = 2.0;
static jmp_buf env;

__attribute__((noinline)) static void format(int i)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%d", i);
	sink += buf[0];
}

__attribute__((noinline)) static void jump(int i)
{
	longjmp(env, i + 1);
}

__attribute__((noinline)) static void at_end(void)
{
	sink += strlen("end");
}

__attribute__((noinline)) static void quit(void)
{
	atexit(at_end);
	printf("exit %zu\n", sink);
	fflush(stdout);
	exit(3);
}

__attribute__((noinline)) static void die_now(void)
{
	printf("abort %zu\n", sink);
	fflush(stdout);
	abort();
}

static void *thread_main(void *unused)
{
	(void)unused;
	for (int i = 0; i < 4; i++)
		sink += strlen("thread");
	pthread_exit(NULL);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "plain";
	double acc = 0;

	for (int i = 0; i < 100; i++)
		sink += strlen(mode + (i & 1));
	for (int i = 0; i < 10; i++)
		format(i);
	for (int i = 0; i < 7; i++)
		acc += sqrt(arg + i);
	if (!strcmp(mode, "longjmp")) {
		volatile int rounds = 0;
		while (rounds < 5) {
			if (setjmp(env) == 0)
				jump(rounds);
			rounds++;
		}
	} else if (!strcmp(mode, "fork")) {
		pid_t p = fork();
		if (p == 0) {
			for (int i = 0; i < 3; i++)
				sink += strlen("child");
			_exit(0);
		}
		waitpid(p, NULL, 0);
	} else if (!strcmp(mode, "vfork")) {
		pid_t p = vfork();
		if (p == 0)
			_exit(0);
		waitpid(p, NULL, 0);
	} else if (!strcmp(mode, "exit")) {
		quit();
	} else if (!strcmp(mode, "abort")) {
		die_now();
	} else if (!strcmp(mode, "thread")) {
		pthread_t t;
		pthread_create(&t, NULL, thread_main, NULL);
		pthread_join(t, NULL);
	} else if (!strcmp(mode, "dlopen")) {
		void *h = dlopen(argc > 2 ? argv[2] : "./libcall_plugin.so", RTLD_NOW);
		void (*work)(void) = h ? (void (*)(void))dlsym(h, "plugin_work") : NULL;
		if (!work) {
			fprintf(stderr, "%s\n", dlerror());
			return 1;
		}
		for (int i = 0; i < 4; i++)
			work();
	}
	printf("%s %zu %.3f\n", mode, sink, acc);
	return 0;
}
