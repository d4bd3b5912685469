/*
 * libdirty_vectors.so: stands in for libc's open(), which the runtime
 * calls from inside a thread's first hook (its staging file), and fills
 * ymm0-15 with ones before opening.  The ABI lets any function do so, and
 * libc's AVX string functions come near it: they leave with vzeroupper,
 * which clears the upper halves.  A hook that kept only part of the
 * vector state then hands the instrumented function garbage in place of
 * its vector arguments.  Preloaded (LD_PRELOAD) into a recorded program;
 * on a processor without AVX it clobbers xmm0-15 alone.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>

typedef int (*open_fn)(const char *, int, ...);

static open_fn real_open;
static int has_avx;

__attribute__((constructor)) static void dirty_vectors_init(void)
{
	real_open = (open_fn)dlsym(RTLD_NEXT, "open");
	has_avx = __builtin_cpu_supports("avx");
}

__attribute__((target("avx"))) static void dirty_ymm(void)
{
	__asm__ volatile("vpcmpeqd %%ymm0, %%ymm0, %%ymm0\n\t"
			 "vmovdqa %%ymm0, %%ymm1\n\tvmovdqa %%ymm0, %%ymm2\n\t"
			 "vmovdqa %%ymm0, %%ymm3\n\tvmovdqa %%ymm0, %%ymm4\n\t"
			 "vmovdqa %%ymm0, %%ymm5\n\tvmovdqa %%ymm0, %%ymm6\n\t"
			 "vmovdqa %%ymm0, %%ymm7\n\tvmovdqa %%ymm0, %%ymm8\n\t"
			 "vmovdqa %%ymm0, %%ymm9\n\tvmovdqa %%ymm0, %%ymm10\n\t"
			 "vmovdqa %%ymm0, %%ymm11\n\tvmovdqa %%ymm0, %%ymm12\n\t"
			 "vmovdqa %%ymm0, %%ymm13\n\tvmovdqa %%ymm0, %%ymm14\n\t"
			 "vmovdqa %%ymm0, %%ymm15\n\t"
			 ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
			 "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
}

static void dirty_xmm(void)
{
	__asm__ volatile("pcmpeqd %%xmm0, %%xmm0\n\t"
			 "movdqa %%xmm0, %%xmm1\n\tmovdqa %%xmm0, %%xmm2\n\t"
			 "movdqa %%xmm0, %%xmm3\n\tmovdqa %%xmm0, %%xmm4\n\t"
			 "movdqa %%xmm0, %%xmm5\n\tmovdqa %%xmm0, %%xmm6\n\t"
			 "movdqa %%xmm0, %%xmm7\n\tmovdqa %%xmm0, %%xmm8\n\t"
			 "movdqa %%xmm0, %%xmm9\n\tmovdqa %%xmm0, %%xmm10\n\t"
			 "movdqa %%xmm0, %%xmm11\n\tmovdqa %%xmm0, %%xmm12\n\t"
			 "movdqa %%xmm0, %%xmm13\n\tmovdqa %%xmm0, %%xmm14\n\t"
			 "movdqa %%xmm0, %%xmm15\n\t"
			 ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
			 "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	if (has_avx)
		dirty_ymm();
	else
		dirty_xmm();
	return real_open(path, flags, mode);
}
