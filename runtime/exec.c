/*
 * The exec family, stood in for so that the sampler's task-clock event,
 * which counts the kernel's time, stops before the exec and cannot signal
 * the new image (sampler_exec_begin()).  Each stand-in calls libc's own
 * function, whose exec the program asked for; the list forms (execl,
 * execle, execlp) gather their arguments into the vector forms first, as
 * libc does.  syscall() is stood in for too, for programs that exec by
 * the raw system call.  posix_spawn, system and popen exec in a child that
 * shares no event, and need nothing.  Each path-taking stand-in first says
 * when the program it starts will not be recorded (exec_target.c), and
 * each one given an environment marks it as this image's
 * (process_image_mark_env()).
 */
#define _GNU_SOURCE
#include "runtime.h"
#include "sampler.h"

#include <errno.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*execv_fn)(const char *, char *const[]);
typedef int (*fexecve_fn)(int, char *const[], char *const[]);
typedef int (*execveat_fn)(int, const char *, char *const[], char *const[], int);
typedef long (*syscall_fn)(long, long, long, long, long, long, long);

static syscall_fn real_syscall;

/* Resolved as the runtime loads, for the runtime's own calls of syscall()
 * may come from a signal handler, where dlsym() must not run. */
__attribute__((constructor)) static void exec_resolve(void)
{
	real_syscall = (syscall_fn)runtime_next_symbol("syscall");
}

/* The real function NAME, looked up at the first exec. */
#define REAL(type, name)                                                   \
	static type real_##name;                                           \
	if (!real_##name)                                                  \
		real_##name = (type)runtime_next_symbol(#name)

/* Runs CALL, an exec, with the sampler's event stopped around it. */
#define EXEC_AROUND(call)                                                  \
	do {                                                               \
		sampler_exec_begin();                                      \
		int rc_ = (call);                                          \
		sampler_exec_failed();                                     \
		return rc_;                                                \
	} while (0)

EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
	REAL(execve_fn, execve);
	exec_target_check(path, 0, envp);
	process_image_mark_env(envp);
	EXEC_AROUND(real_execve(path, argv, envp));
}

EXPORT int execv(const char *path, char *const argv[])
{
	REAL(execv_fn, execv);
	exec_target_check(path, 0, environ);
	EXEC_AROUND(real_execv(path, argv));
}

EXPORT int execvp(const char *file, char *const argv[])
{
	REAL(execv_fn, execvp);
	exec_target_check(file, 1, environ);
	EXEC_AROUND(real_execvp(file, argv));
}

EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
	REAL(execve_fn, execvpe);
	exec_target_check(file, 1, envp);
	process_image_mark_env(envp);
	EXEC_AROUND(real_execvpe(file, argv, envp));
}

EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
	REAL(fexecve_fn, fexecve);
	process_image_mark_env(envp);
	EXEC_AROUND(real_fexecve(fd, argv, envp));
}

EXPORT int execveat(int dirfd, const char *path, char *const argv[], char *const envp[], int flags)
{
	REAL(execveat_fn, execveat);
	process_image_mark_env(envp);
	EXEC_AROUND(real_execveat(dirfd, path, argv, envp, flags));
}

/*
 * The list forms: ARG0 and the arguments after it up to a null pointer
 * become a vector on the stack, as libc builds it; for execle the pointer
 * after the null one is the environment.  Then the vector form's stand-in
 * runs.
 */
enum list_form { LIST_EXECL, LIST_EXECLP, LIST_EXECLE };

static int exec_list(enum list_form form, const char *path, const char *arg0, va_list ap)
{
	va_list count;
	size_t n = 1;

	va_copy(count, ap);
	while (va_arg(count, const char *))
		n++;
	va_end(count);
	const char *argv[n + 1];
	argv[0] = arg0;
	for (size_t i = 1; i <= n; i++)	/* the arguments, then the null pointer */
		argv[i] = va_arg(ap, const char *);
	switch (form) {
	case LIST_EXECLP:
		return execvp(path, (char *const *)argv);
	case LIST_EXECLE:
		return execve(path, (char *const *)argv, va_arg(ap, char *const *));
	default:
		return execv(path, (char *const *)argv);
	}
}

EXPORT int execl(const char *path, const char *arg, ...)
{
	va_list ap;

	va_start(ap, arg);
	int rc = exec_list(LIST_EXECL, path, arg, ap);
	va_end(ap);
	return rc;
}

EXPORT int execlp(const char *file, const char *arg, ...)
{
	va_list ap;

	va_start(ap, arg);
	int rc = exec_list(LIST_EXECLP, file, arg, ap);
	va_end(ap);
	return rc;
}

EXPORT int execle(const char *path, const char *arg, ...)
{
	va_list ap;

	va_start(ap, arg);
	int rc = exec_list(LIST_EXECLE, path, arg, ap);
	va_end(ap);
	return rc;
}

EXPORT long syscall(long number, ...)
{
	va_list ap;
	long a[6];

	va_start(ap, number);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (!real_syscall)
		exec_resolve();
	if (number != SYS_execve && number != SYS_execveat)
		return real_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
	process_image_mark_env((char *const *)a[number == SYS_execve ? 2 : 3]);
	sampler_exec_begin();
	long rc = real_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
	sampler_exec_failed();
	return rc;
}
