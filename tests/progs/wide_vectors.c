/*
 * Arguments and results in the upper halves of the ymm registers, at a
 * thread's first hook: the hook that starts the thread's recording opens
 * its buffer through libc, whose AVX string functions leave with
 * vzeroupper.  Each thread's first call is to blend(), instrumented,
 * which takes two __m256d and returns one, or with "lib" to libmvec's
 * four-lane cosine, a library call; the thread's start routine is left
 * uninstrumented so that nothing else starts the recording first.
 *
 *   wide_vectors [THREADS [lib]]   prints the sum of every lane of every
 *                                  result, or "no avx" ("no avx2" for lib)
 *                                  where the processor has none
 */
#include <immintrin.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_THREADS 64

__attribute__((noinline, target("avx"))) __m256d blend(__m256d a, __m256d b)
{
	return _mm256_add_pd(_mm256_mul_pd(a, _mm256_set1_pd(3.0)), b);
}

/* libmvec's cos of four doubles (AVX2) */
__m256d _ZGVdN4v_cos(__m256d x);

static double lanes[MAX_THREADS];
static int through_library;

__attribute__((no_instrument_function, target("avx"))) static void *worker(void *arg)
{
	long i = (long)arg;
	__m256d a = _mm256_set_pd(i + 4.0, i + 3.0, i + 2.0, i + 1.0);
	__m256d b = _mm256_set_pd(40.0 * i, 30.0 * i, 20.0 * i, 10.0 * i);
	double out[4];

	_mm256_storeu_pd(out, through_library ? _ZGVdN4v_cos(a) : blend(a, b));
	lanes[i] = out[0] + 10 * out[1] + 100 * out[2] + 1000 * out[3];
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 8;
	pthread_t th[MAX_THREADS];
	double total = 0;

	through_library = argc > 2 && strcmp(argv[2], "lib") == 0;
	if (!(through_library ? __builtin_cpu_supports("avx2") : __builtin_cpu_supports("avx"))) {
		puts(through_library ? "no avx2" : "no avx");
		return 0;
	}
	if (n < 1 || n > MAX_THREADS)
		n = 8;
	for (long i = 0; i < n; i++)
		pthread_create(&th[i], NULL, worker, (void *)i);
	for (long i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	for (long i = 0; i < n; i++)
		total += lanes[i];
	printf("%.1f\n", total);
	return 0;
}
