/* Calls the functions of patch_shapes.S a known number of times and
 * prints what they return, which patching must not change. */
#include <stdio.h>

int shape_plain(int x);
int shape_riprel(int x);
int shape_loop0(int n);
int shape_tail(int x);
int shape_tailloop(int n);
int shape_calls(int x);

int main(void)
{
	long sum = 0;

	for (int i = 0; i < 1000; i++)
		sum += shape_plain(i);
	for (int i = 0; i < 200; i++)
		sum += shape_riprel(i);
	for (int i = 0; i < 30; i++)
		sum += shape_loop0(3);
	for (int i = 0; i < 100; i++)
		sum += shape_tail(i);
	for (int i = 0; i < 20; i++)
		sum += shape_tailloop(3);
	for (int i = 0; i < 50; i++)
		sum += shape_calls(i);
	printf("sum %ld\n", sum);
	return 0;
}
