#define _GNU_SOURCE
/*
 * Which library functions need care, by name: those that never return
 * and those that return twice.  A function that returns twice saves its
 * return address (setjmp in the jmp_buf, vfork in a register while the
 * child borrows the stack), so it must stay the real one: a second return
 * through the trampoline would find its frame already gone.
 */
#include "libcall.h"
#include "libcall_setting.h"

#include <string.h>

static const char *const never_return[] = {
	"exit", "_exit", "_Exit", "quick_exit", "abort",
	"longjmp", "_longjmp", "siglongjmp", "__longjmp_chk",
	"pthread_exit", "__cxa_throw", "__cxa_rethrow", "_Unwind_Resume",
	"__stack_chk_fail", "__assert_fail", "__fortify_fail", "__chk_fail",
	"err", "errx", "verr", "verrx", "execve", "execv", "execvp", "execl",
	"execlp", "execle", "fexecve", "execvpe", "execveat",
	NULL,
};

static const char *const return_twice[] = {
	"setjmp", "_setjmp", "sigsetjmp", "__sigsetjmp", "getcontext", "vfork",
	NULL,
};

static const char *const loaders[] = { "dlopen", "dlmopen", NULL };

/* The hooks themselves, and start-up code that runs before and around
 * main: __libc_start_main calls main (every call would sit under it), and
 * a -pg program's start-up registers its gmon.out writer with
 * __cxa_atexit before main, a root beside it that the program never made. */
static const char *const ignored[] = {
	"mcount", "_mcount", "__fentry__", "__cyg_profile_func_enter",
	"__cyg_profile_func_exit", "__monstartup", "_mcleanup", "__gmon_start__",
	"__libc_start_main", "__cxa_finalize", "__cxa_atexit",
	NULL,
};

/* The runtime's own stand-ins that are traced as the functions they stand
 * in for; the others (the unwinder's entry points, the context switches)
 * are part of how the runtime follows the stack and stay unseen. */
static const char *const stand_ins[] = {
	"signal", "bsd_signal", "sysv_signal", "__sysv_signal", "sigaction", "sigprocmask",
	"pthread_sigmask", "pthread_create", "pthread_exit", "clone", "dlclose", "backtrace",
	"execve", "execv", "execvp", "execvpe", "execl", "execlp", "execle", "fexecve",
	"execveat", "syscall", "_exit", "_Exit", NULL,
};

static int listed(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (!strcmp(*list, name))
			return 1;
	return 0;
}

enum libcall_kind libcall_kind_of(const char *name)
{
	if (listed(never_return, name))
		return LIBCALL_NEVER_RETURNS;
	if (listed(return_twice, name))
		return LIBCALL_RETURNS_TWICE;
	if (listed(loaders, name))
		return LIBCALL_LOADS;
	return LIBCALL_RETURNS;
}

int libcall_stand_in_traced(const char *name)
{
	return listed(stand_ins, name);
}

int libcall_ignored(const char *name)
{
	return listed(ignored, name) || !strncmp(name, "callscope__", 11);
}

/* Does ITEM (LEN bytes) select NAME, defined in OBJECT's file? */
static int item_selects(const char *item, size_t len, const char *name, const char *object)
{
	const char *base = strrchr(object, '/');

	base = base ? base + 1 : object;
	if (memmem(item, len, ".so", 3))
		return !strncmp(base, item, len);
	if (len && item[len - 1] == '*')
		return !strncmp(name, item, len - 1);
	return strlen(name) == len && !memcmp(name, item, len);
}

int libcall_selected(const char *spec, const char *name, const char *object)
{
	if (!spec || !strcmp(spec, LIBCALL_ALL))
		return 1;
	while (*spec) {
		const char *comma = strchr(spec, ',');
		size_t len = comma ? (size_t)(comma - spec) : strlen(spec);
		if (item_selects(spec, len, name, object))
			return 1;
		spec += len + (comma != NULL);
	}
	return 0;
}
