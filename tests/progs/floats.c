/*
 * Arguments and results in every register class the hooks must keep:
 * doubles and floats (xmm0-7), long double (x87), a struct returned in
 * rax:rdx, varargs (al holds the vector count), many integer arguments.
 *
 *   floats [N [DEPTH]]   N rounds of the six calls (default 100), then a
 *                        recursion DEPTH calls deep with a double live in
 *                        each call (default 0): a new call path at each
 *                        depth, for the buffers that grow meanwhile
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct pair {
	long a, b;
};

__attribute__((noinline)) double mix(double a, double b, double c, double d, double e,
				     double f, double g, double h)
{
	return a * 1 + b * 2 + c * 3 + d * 4 + e * 5 + f * 6 + g * 7 + h * 8;
}

__attribute__((noinline)) float halve(float x) { return x / 2; }

__attribute__((noinline)) long double third(long double x) { return x / 3; }

__attribute__((noinline)) struct pair swap(long a, long b) { return (struct pair){ b, a }; }

__attribute__((noinline)) long many(long a, long b, long c, long d, long e, long f, long g,
				    long h)
{
	return a - b + c - d + e - f + g - h;
}

__attribute__((noinline)) double sum(int n, ...)
{
	va_list ap;
	double s = 0;
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		s += va_arg(ap, double);
	va_end(ap);
	return s;
}

__attribute__((noinline)) double descend(double x, int depth)
{
	return depth ? x + descend(x * 1.0001, depth - 1) : x;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100;
	int depth = argc > 2 ? atoi(argv[2]) : 0;
	double acc = 0;
	for (int i = 0; i < n; i++) {
		acc += mix(i, 1.5, 2.25, 3.125, 4.0625, 5.5, 6.75, 7.875);
		acc += halve((float)i);
		acc += (double)third((long double)i);
		struct pair p = swap(i, -i);
		acc += (double)(p.a - p.b);
		acc += (double)many(i, 2, 3, 4, 5, 6, 7, 8);
		acc += sum(4, 0.5, 1.5, (double)i, 2.5);
	}
	acc += descend(0.5, depth);
	printf("%.6f\n", acc);
	return 0;
}
