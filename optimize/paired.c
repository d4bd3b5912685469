/* The sign test over code offsets; see paired.h. */
#include "optimize/paired.h"

#include <string.h>

/* P(X <= k) for X ~ Binomial(n, 1/2). */
static double binomial_half_cdf(size_t k, size_t n)
{
	double term = 1.0, sum = 0;

	for (size_t i = 0; i < n; i++)
		term /= 2;	/* C(n, 0) / 2^n, exactly, without libm */
	for (size_t i = 0; i <= k && i <= n; i++) {
		sum += term;
		term = term * (double)(n - i) / (double)(i + 1);
	}
	return sum;
}

void paired_compare(const double *now, const double *before, size_t n, struct paired *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t k = 0; k < n; k++) {
		if (now[k] < before[k])
			out->fewer++;
		else if (now[k] > before[k])
			out->more++;
		else
			out->same++;
	}
	size_t m = out->fewer + out->more;
	size_t least = out->fewer < out->more ? out->fewer : out->more;
	out->p = m ? 2.0 * binomial_half_cdf(least, m) : 1.0;
	if (out->p > 1.0)
		out->p = 1.0;
}

int paired_verdict(const struct paired *p)
{
	if (p->p >= PAIRED_LEVEL)
		return 0;
	return p->fewer > p->more ? 1 : -1;
}
