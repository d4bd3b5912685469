/*
 * libcall_twins: calls first 3 times and second 5 times (both in
 * libcall_twins_lib.c, reaching one implementation), then libc's memcpy
 * 7 times and memmove 2 times (build with -fno-builtin, so that each is
 * a call).
 */
#include <stdio.h>
#include <string.h>

int first(int x);
int second(int x);

int main(void)
{
	char buf[64] = "0123456789abcdef", out[64];
	int s = 0;

	for (int i = 0; i < 3; i++)
		s += first(i);
	for (int i = 0; i < 5; i++)
		s += second(i);
	for (int i = 0; i < 7; i++)
		memcpy(out, buf + i, 8);
	for (int i = 0; i < 2; i++)
		memmove(buf + 1, buf, 8);
	printf("%d %.8s %.8s\n", s, out, buf);
	return 0;
}
