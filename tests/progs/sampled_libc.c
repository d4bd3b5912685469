/*
 * count --time-by=samples in a library's code: tail_len() ends by jumping
 * to libc's strlen (a tail call at -O2), plain_len() calls it and adds
 * one.  Nearly all the time is strlen's own, in libc, which has no hooks:
 * its samples must be named by libc's function, under the path that
 * reached it, not given to the program's function on top of the shadow
 * stack.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEN (256 << 10)
#define ROUNDS 30000

__attribute__((noinline)) size_t tail_len(const char *s)
{
	return strlen(s);
}

__attribute__((noinline)) size_t plain_len(const char *s)
{
	return strlen(s) + 1;
}

int main(void)
{
	char *s = malloc(LEN + 1);
	size_t sum = 0;

	if (!s)
		return 1;
	memset(s, 'a', LEN);
	s[LEN] = '\0';
	for (int i = 0; i < ROUNDS; i++) {
		s[LEN - 1 - (i & 7)] = '\0';
		sum += tail_len(s) + plain_len(s);
		s[LEN - 1 - (i & 7)] = 'a';
	}
	printf("%s\n", sum > (size_t)ROUNDS * LEN ? "ok" : "wrong");
	free(s);
	return 0;
}
