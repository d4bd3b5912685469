/*
 * A library that changes its own code as it loads: its constructor
 * rewrites the immediate of selfmod_answer()'s first instruction (5 ->
 * 6), as a hot-patching or self-decrypting library would.  The code then
 * differs from the file a patch plan was made from, and the runtime must
 * refuse that entry rather than patch it.  The others stay as in the
 * file: selfmod_plain(), and two entries no 5-byte jump fits while
 * threads may run (the library comes by dlopen): selfmod_loop (a loop
 * head after 2 bytes) and selfmod_tiny (a `ret` packed against the next
 * function).
 */
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

__asm__(".text\n"
	".globl selfmod_answer\n.type selfmod_answer,@function\n"
	"selfmod_answer:\n"
	"	mov $5, %eax\n"
	"	ret\n"
	".size selfmod_answer, .-selfmod_answer\n"
	".p2align 4\n"
	".globl selfmod_loop\n.type selfmod_loop,@function\n"
	"selfmod_loop:\n"
	"	xor %eax, %eax\n"
	"1:	inc %eax\n"
	"	cmp %edi, %eax\n"
	"	jl 1b\n"
	"	ret\n"
	".size selfmod_loop, .-selfmod_loop\n"
	".p2align 4\n"
	".globl selfmod_tiny\n.type selfmod_tiny,@function\n"
	"selfmod_tiny:\n"
	"	ret\n"
	".size selfmod_tiny, .-selfmod_tiny\n"
	".globl selfmod_after\n.type selfmod_after,@function\n"
	"selfmod_after:\n"
	"	mov $1, %eax\n"
	"	ret\n"
	".size selfmod_after, .-selfmod_after\n");

int selfmod_answer(void);

__attribute__((noinline)) int selfmod_plain(int x)
{
	return x * 3 + 1;
}

/* through /proc/self/mem: the page stays executable (this code is on it) */
__attribute__((constructor)) static void rewrite(void)
{
	static const uint8_t six = 6;
	int fd = open("/proc/self/mem", O_RDWR);

	if (fd >= 0) {
		if (pwrite(fd, &six, 1, (off_t)(uintptr_t)selfmod_answer + 1) != 1)
			_exit(3);
		close(fd);
	}
}
