/*
 * The subcommands.  Adding one means: its cli/cmd_NAME.c with
 * cmd_NAME(argc, argv), a row in commands[] of cli/main.c, a page
 * docs/NAME.md, and a test tests/t/NNNN-NAME-*.t.
 */
#ifndef CALLSCOPE_CLI_COMMANDS_H
#define CALLSCOPE_CLI_COMMANDS_H

int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_graph(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_tree(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_gprof(int argc, char **argv);
int cmd_html(int argc, char **argv);
int cmd_live(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_optimize(int argc, char **argv);

/* Exit status of an analysis that had to salvage damaged data. */
#define EXIT_SALVAGED 3

#endif
