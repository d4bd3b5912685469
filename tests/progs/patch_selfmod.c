/*
 * A library that changes its own code as it loads: its constructor
 * rewrites the immediate of selfmod_answer()'s first instruction (5 ->
 * 6), as a hot-patching or self-decrypting library would.  The code then
 * differs from the file a patch plan was made from, and the runtime must
 * refuse that entry rather than patch it.  selfmod_plain() stays as in
 * the file.
 */
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

__asm__(".text\n"
	".globl selfmod_answer\n.type selfmod_answer,@function\n"
	"selfmod_answer:\n"
	"	mov $5, %eax\n"
	"	ret\n"
	".size selfmod_answer, .-selfmod_answer\n");

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
