#include "cli/recording_arg.h"

#include <stddef.h>

#include "die.h"

const char *recording_arg(const char *command, const char *option_path, int argc,
			  char **argv, int first)
{
	if (first >= argc)
		return option_path ? option_path : RECORDING_DEFAULT;
	if (option_path)
		usage_die("two recordings given, '%s' (-i) and '%s'; give one",
			  option_path, argv[first]);
	if (first + 1 < argc)
		usage_die("unexpected argument '%s'; 'callscope %s' reads one recording; "
			  "see 'callscope %s --help'", argv[first + 1], command, command);
	return argv[first];
}
