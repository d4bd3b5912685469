/*
 * Which recording a command reads: `-i PATH` or one positional PATH, as
 * gprof takes its gmon.out (callscope report run.data); callscope.data
 * when neither is given.
 */
#ifndef CALLSCOPE_CLI_RECORDING_ARG_H
#define CALLSCOPE_CLI_RECORDING_ARG_H

#define RECORDING_DEFAULT "callscope.data"

/*
 * The recording COMMAND reads: OPTION_PATH (-i's, NULL when not given) or
 * the one argument ARGV[FIRST..ARGC) holds.  Dies with a usage line when
 * there are more, or a positional PATH beside -i.
 */
const char *recording_arg(const char *command, const char *option_path, int argc,
			  char **argv, int first);

#endif
