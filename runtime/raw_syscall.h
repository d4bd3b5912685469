/*
 * System calls made without libc's wrappers: the kernel's answer is
 * returned as it is (-errno on failure) and errno is never written.  The
 * threads of the runtime's own that glibc does not know of
 * (runtime_thread_spawn_unseen()) run on the main thread's thread-local
 * storage, where a wrapper's errno would be the main thread's; what they
 * do goes through these.
 */
#ifndef CALLSCOPE_RAW_SYSCALL_H
#define CALLSCOPE_RAW_SYSCALL_H

#if !defined(__x86_64__)
#error "raw_syscall.h knows the x86-64 system call convention only"
#endif

static inline long raw_syscall6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

static inline long raw_syscall3(long nr, long a, long b, long c)
{
	return raw_syscall6(nr, a, b, c, 0, 0, 0);
}

/* Whether RET, a raw system call's answer, is a failure (-4095..-1). */
static inline int raw_failed(long ret)
{
	return (unsigned long)ret > -4096ul;
}

#endif
