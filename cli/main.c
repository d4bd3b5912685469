/*
 * callscope: the command table and what every command needs around it
 * (checking that stdout was really written, so a full disk is an error;
 * a file size limit turned into an error too).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "die.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

/* Adding a command: see cli/commands.h. */
static const struct command commands[] = {
	{ "record", cmd_record, "run a program and record its calls" },
	{ "report", cmd_report, "flat profile: time and calls per function" },
	{ "graph", cmd_graph, "call graph in gprof's layout" },
	{ "info", cmd_info, "what was recorded: program, processes, threads, losses" },
	{ "list", cmd_list, "the counters record -e can read on this machine" },
	{ "replay", cmd_replay, "the recorded calls in order, with marks and the fatal signal" },
	{ "tree", cmd_tree, "call-path tree: calls and time per calling context" },
	{ "gprof", cmd_gprof, "GNU gprof's reports from gmon.out files, byte for byte" },
	{ "export", cmd_export, "write gmon.out, callgrind, pprof, Chrome JSON, folded stacks, .prf" },
	{ "merge", cmd_merge, "sum several runs of one program into one data file" },
	{ "diff", cmd_diff, "per-function change in time and calls between two runs" },
	{ "html", cmd_html, "one offline HTML page: flame graph, call tree, timeline, diff" },
	{ "live", cmd_live, "control a running recorded program: list, start, stop, snapshot" },
	{ "top", cmd_top, "a running recorded program's flat profile, refreshed" },
	{ "annotate", cmd_annotate, "a sampled function's source lines and instructions with their samples" },
	{ "optimize", cmd_optimize, "link order for the instruction cache; --measure what it gained" },
};

static void print_usage(FILE *out)
{
	fprintf(out, "usage: callscope <command> [options]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n'callscope <command> --help' describes a command's options.\n");
}

static void file_too_large(int sig)
{
	(void)sig;
}

/*
 * A write past the file size limit (ulimit -f) raises SIGXFSZ, whose
 * default kills the process and leaves a half-written temporary file.
 * Caught, the write fails with EFBIG instead and the command cleans up
 * and says so.  A handler, unlike ignoring the signal, is not inherited
 * by a program that record or optimize --measure runs.
 */
static void catch_file_size_limit(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = file_too_large;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGXFSZ, &sa, NULL);
}

int main(int argc, char **argv)
{
	catch_file_size_limit();
	if (argc < 2) {
		print_usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		print_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("callscope 0.1\n");
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		int status = commands[i].run(argc - 1, argv + 1);
		if (fflush(stdout) != 0 || ferror(stdout))
			die("cannot write the output: %s", strerror(errno));
		return status;
	}
	usage_die("'%s' is not a callscope command; see 'callscope --help'", argv[1]);
}
