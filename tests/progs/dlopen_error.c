/*
 * dlopen_error OBJECT NOT-AN-OBJECT: what dlerror() says after each kind
 * of dlopen.  A dlopen that loads must leave no error behind; a dlopen of
 * a file that is no ELF object fails, and the thread's next dlerror()
 * must name the file.  libuv's uv_dlopen reads the error in exactly this
 * way, and its test of a bad file checks the message.  The program calls
 * sigprocmask, a function the runtime stands in for, only after the
 * loads: its slot is still unbound while they run (lazy binding).
 * Built with -DLOAD_ONLY it makes the first load alone, and calls nothing
 * the runtime stands in for.
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	const char *msg;
	void *h;

	if (argc != 3)
		return 2;
	dlerror();
	h = dlopen(argv[1], RTLD_LAZY);
	msg = dlerror();
	if (!h || msg) {
		printf("load: %s\n", msg ? msg : "no handle");
		return 1;
	}
#ifndef LOAD_ONLY
	h = dlopen(argv[2], RTLD_LAZY);
	msg = h ? NULL : dlerror();
	if (h || !msg || !strstr(msg, argv[2])) {
		printf("failed load: %s\n", msg ? msg : "no error");
		return 1;
	}
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	if (sigprocmask(SIG_BLOCK, &set, NULL) != 0)
		return 1;
#endif
	puts("done");
	return 0;
}
