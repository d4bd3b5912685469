/*
 * What the export, merge and diff commands need from a recording besides
 * load_profile(): the profile and the call-path tree from one replay
 * (and, for Chrome JSON, each call as it happens), the run's objects and
 * command line for the writers, and which executable is the program's.
 */
#ifndef CALLSCOPE_CLI_EXPORT_LOAD_H
#define CALLSCOPE_CLI_EXPORT_LOAD_H

#include "load/load.h"
#include "formats/export.h"
#include "model/cct.h"

/* One timer sample: where its stack ends in the tree of samples, and the
 * runtime address of its PC in process image (PID, IMAGE); ADDR is
 * CCT_OUTSIDE_ADDR when the PC lay in no known object. */
struct export_sample_pc {
	uint32_t node;
	uint32_t pid, image;
	uint64_t addr;
	uint64_t weight;
};

struct export_data {
	struct profile *p;		/* owned */
	struct cct *tree;		/* owned; NULL unless asked for */
	struct export_thread *threads;	/* owned, behind meta.threads */
	struct cct *sample_tree;	/* owned; NULL unless asked for */
	struct export_meta meta;	/* its strings borrow from the data file */
	struct export_object *objects;	/* owned array behind meta.objects */
	char *cmd;			/* owned, behind meta.cmd */
	struct load_stats stats;
	int chrome_failed;		/* writing the Chrome JSON failed (errno set) */
	uint64_t call_events;		/* calls replayed one by one: the Chrome
					 * JSON's events (none from samples or
					 * from record --mode=count) */
	/* with EXPORT_CALL_HISTOGRAMS: per function of p, its replayed calls
	 * by inclusive time in ns, bucketed as sum_bucket() (model/sum.h);
	 * NULL rows for functions with none */
	uint64_t **call_hist;		/* owned */
	size_t ncall_hist;
	/* with EXPORT_SAMPLE_PCS (and EXPORT_SAMPLE_TREE): each replayed
	 * sample's node in sample_tree and its PC */
	struct export_sample_pc *sample_pcs;	/* owned */
	size_t nsample_pcs, sample_pcs_alloc;
};

/*
 * Replays the threads F selects from DF into OUT->p (and OUT->tree when
 * WANT_TREE), adds their call paths summed by record --mode=count, then
 * finds cycles.  WANT_TREE EXPORT_THREAD_TREES also builds each thread's
 * own tree (OUT->meta.threads); with EXPORT_SAMPLE_TREE the timer samples
 * go to a tree of their own (OUT->sample_tree) instead of OUT->tree.  With
 * EXPORT_CALL_HISTOGRAMS each replayed call's time is also counted in
 * OUT->call_hist (count-mode threads bucketed theirs already).  With CHROME not NULL, the calls are
 * also written there as Chrome trace JSON while they are replayed.  Timer
 * samples count in the profile (self_samples, samples) and, with a tree,
 * at the node of their stack: in a recording of samples alone
 * (meta.samples_only) the tree's CCT_TIME self and total are samples, not
 * ns, and no node has calls.  OUT borrows from DF: release OUT first.
 */
enum {
	EXPORT_TREE = 1,
	EXPORT_THREAD_TREES = 2 | EXPORT_TREE,
	EXPORT_SAMPLE_TREE = 4,
	EXPORT_CALL_HISTOGRAMS = 8,
	EXPORT_SAMPLE_PCS = 16,
};
void export_data_load(const struct data_file *df, const struct load_filter *f, int want_tree,
		      FILE *chrome, struct export_data *out);

/* Fills in each function's source file and line from the DWARF. */
void export_data_lines(struct export_data *d, const struct data_file *df);

/*
 * Finds where each arc's caller calls its callee, in the caller's code on
 * disk (for gmon.out, whose arcs start at a call site).  Calls between
 * objects (through the PLT) and calls through pointers keep site 0.
 */
void export_data_call_sites(struct export_data *d);

void export_data_release(struct export_data *d);

/*
 * The process the run started with (the earliest to start), or NULL for
 * a recording without processes.
 */
const struct data_process *export_main_process(const struct data_file *df);

/* The main executable's object record in DF, or NULL. */
const struct data_object *export_main_object(const struct data_file *df);

#endif
