#include "cli/threshold_arg.h"

#include <stdlib.h>

#include "die.h"

double threshold_arg(const char *value)
{
	char *end;
	double v = strtod(value, &end);

	if (end == value || *end || !(v >= 0 && v <= 100))
		usage_die("--threshold wants a percentage from 0 to 100, not '%s'", value);
	return v;
}
