#include "perf_paranoid.h"

#include <stdio.h>

int perf_paranoid_read(int *level)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int v, rc = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) == 1) {
		*level = v;
		rc = 0;
	}
	fclose(f);
	return rc;
}
