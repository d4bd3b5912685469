#include "report/units.h"

#include <stdio.h>

const char *format_duration(char buf[DURATION_BUF], double ns)
{
	static const char *const units[] = { "ns", "us", "ms", "s" };
	int u = 0;

	while (u < 3 && ns >= 999.9995) {
		ns /= 1000;
		u++;
	}
	if (u == 0)
		snprintf(buf, DURATION_BUF, "%.0f %s", ns, units[u]);
	else
		snprintf(buf, DURATION_BUF, "%.3f %s", ns, units[u]);
	return buf;
}
