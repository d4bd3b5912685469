/*
 * The instruction-cache optimizer: a weighted call graph of the functions a
 * linker can move, and the algorithms that turn it into a link order.
 *
 * The unit a linker moves is an input section, not a function: a file
 * compiled with -ffunction-sections has one section per function, but a
 * file compiled without it (or a library) keeps all its code in one .text
 * section, and those functions move together.  So the graph has two
 * levels: functions (what the profile counts and the order files name)
 * and groups (one per input section, what the algorithms place).  Every
 * algorithm works on groups only, which is why no algorithm can split a
 * fixed group.
 *
 * An algorithm turns the hot groups (those with calls or time) into
 * clusters: runs of groups to be laid out one after the other.  The
 * layout is the clusters in order; groups not in it (never called) keep
 * the linker's default order after the hot code.
 */
#ifndef CALLSCOPE_OPTIMIZE_OPTIMIZE_H
#define CALLSCOPE_OPTIMIZE_OPTIMIZE_H

#include <stddef.h>
#include <stdint.h>

#define OPT_NONE UINT32_MAX

enum opt_func_flags {
	OPT_NO_SIZE = 1 << 0,	/* the symbol table gives no size */
	OPT_SHARED = 1 << 1,	/* lives in a shared library: cannot be placed */
	OPT_STALE = 1 << 2,	/* in the profile but not in the binary */
	OPT_UNCALLED = 1 << 3,	/* in the binary, not called during the profile */
	OPT_AMBIGUOUS = 1 << 4,	/* several local functions of the binary share the name */
};

struct opt_func {
	char *name;		/* owned */
	char *object;		/* owned; binary or library path, may be "" */
	uint64_t addr;		/* link-time address in the binary, 0 if not in it */
	uint64_t size;		/* bytes, 0 if unknown */
	uint64_t calls;
	uint64_t heat;		/* calls, or self time in ns (see graph_build.h) */
	uint32_t group;		/* OPT_NONE: not placeable */
	unsigned flags;		/* enum opt_func_flags */
};

/* One input section: the functions in it move together. */
struct opt_group {
	char *section;		/* owned; input section name, NULL when unknown */
	char *file;		/* owned; input file as the linker named it, or NULL */
	uint64_t addr;		/* in the binary (orders groups deterministically) */
	uint64_t size;
	uint32_t *members;	/* function indices in address order; owned */
	size_t nmembers, members_alloc;
	uint64_t calls, heat;	/* sums over the members */
};

/* Calls from one group into another, both directions kept apart. */
struct opt_edge {
	uint32_t from, to;
	uint64_t count;
};

/* Calls between two functions (for lld's call-graph file). */
struct opt_arc {
	uint32_t caller, callee;
	uint64_t count;
};

struct opt_graph {
	struct opt_func *funcs;
	size_t nfuncs, funcs_alloc;
	struct opt_group *groups;
	size_t ngroups, groups_alloc;
	struct opt_arc *arcs;
	size_t narcs, arcs_alloc;
	struct opt_edge *edges;	/* between groups, merged, no self edges; set by finish */
	size_t nedges;
	uint64_t total_heat, total_calls;
	int finished;
};

/* Returns a new empty graph; free it with opt_graph_free(). */
struct opt_graph *opt_graph_new(void);
void opt_graph_free(struct opt_graph *g);

/* Adds a function (strings are copied) and returns its index. */
uint32_t opt_graph_add_func(struct opt_graph *g, const char *name, const char *object,
			    uint64_t addr, uint64_t size, unsigned flags);

/* Adds COUNT calls from CALLER to CALLEE (function indices). */
void opt_graph_add_calls(struct opt_graph *g, uint32_t caller, uint32_t callee,
			 uint64_t count);

/* Adds an input section (strings copied, either may be NULL); returns its index. */
uint32_t opt_graph_add_group(struct opt_graph *g, const char *section, const char *file,
			     uint64_t addr, uint64_t size);

/* Puts function FUNC into GROUP. */
void opt_graph_assign(struct opt_graph *g, uint32_t func, uint32_t group);

/*
 * Completes the graph: every placeable function (not shared, not stale)
 * without a group gets one of its own, groups sum their members' calls and
 * heat, and the group edges are built.  Call once, after all additions.
 */
void opt_graph_finish(struct opt_graph *g);

/* 1 if the group has calls or time: the algorithms place it. */
int opt_group_hot(const struct opt_group *gr);

struct opt_cluster {
	uint32_t *groups;	/* owned; in layout order */
	size_t n, alloc;
	uint64_t size, calls, heat;
};

struct opt_layout {
	struct opt_cluster *clusters;
	size_t n, alloc;
};

void opt_layout_free(struct opt_layout *l);
/* Appends group GR to cluster C, updating its sums. */
void opt_cluster_push(struct opt_cluster *c, const struct opt_graph *g, uint32_t gr);
/* Returns a new empty cluster at the end of L. */
struct opt_cluster *opt_layout_add(struct opt_layout *l);
/* Sorts L's clusters by heat per byte, hottest first (ties: first group's address). */
void opt_layout_sort_by_density(const struct opt_graph *g, struct opt_layout *l);
/*
 * Reorders L's clusters (sorted densest first) so that each is followed by
 * the cluster it exchanges the most calls with among those not yet placed,
 * or by the densest one left when it calls none of them.
 */
void opt_layout_link_by_calls(const struct opt_graph *g, struct opt_layout *l);

/*
 * Moves the cold parts of L (gcc's .cold pieces, sections of unlikely
 * code) into one last cluster after all the hot code: a sampled profile
 * catches them now and then, and among the hot code they would take cache
 * lines from what runs all the time.
 */
void opt_layout_sink_cold(const struct opt_graph *g, struct opt_layout *l);

/*
 * The undirected view of the group edges: the neighbours of group G are
 * nbr[start[G] .. start[G + 1]), each with the calls made both ways.
 */
struct opt_adjacency {
	size_t *start;
	uint32_t *nbr;
	uint64_t *weight;
};

void opt_adjacency_build(const struct opt_graph *g, struct opt_adjacency *a);
void opt_adjacency_release(struct opt_adjacency *a);
/* The calls between groups X and Y both ways (0 if none). */
uint64_t opt_adjacency_weight(const struct opt_adjacency *a, uint32_t x, uint32_t y);

struct opt_params {
	uint64_t cache_size;	/* bytes: the largest cluster the capped algorithms build */
};

/*
 * The algorithms.  Each fills OUT (empty on entry) with every hot group
 * exactly once.
 *
 * cph: call-proximity hit order.  Takes arcs heaviest first; each free
 *   pair starts a clique that grows through the callers and callees of its
 *   members (the candidate most called to or from the clique first) until
 *   the next one would pass the cache size.  Cliques hottest per byte first.
 * pettis_hansen: Pettis and Hansen (PLDI 1990): merge the chains joined
 *   by the heaviest edge, oriented so that edge's two ends sit closest; no
 *   size cap.
 * c3: call-chain clustering (Ottoni and Maher, CGO 2017): hottest first,
 *   append each function's cluster to the cluster of its most frequent
 *   caller unless the result passes the cache size or its density falls
 *   below an eighth of the caller cluster's; clusters by density.
 * executed: the hot groups in the binary's current order (the baseline
 *   "executed functions first").
 */
void cph_layout(const struct opt_graph *g, const struct opt_params *p,
		struct opt_layout *out);
void pettis_hansen_layout(const struct opt_graph *g, const struct opt_params *p,
			  struct opt_layout *out);
void c3_layout(const struct opt_graph *g, const struct opt_params *p,
	       struct opt_layout *out);
void dense_chains_layout(const struct opt_graph *g, const struct opt_params *p,
			 struct opt_layout *out);
void executed_layout(const struct opt_graph *g, const struct opt_params *p,
		     struct opt_layout *out);
/*
 * Chains merged by the cache hits each merge gains, then each chain left
 * joins the chain that calls it the most if both fit, unless a hot group
 * is larger than the cache (cache_sort.c says why).
 */
void cache_sort_layout(const struct opt_graph *g, const struct opt_params *p,
		       struct opt_layout *out);
/* The same, joining the chains left whatever the sizes of the hot groups. */
void cache_sort_callers_layout(const struct opt_graph *g, const struct opt_params *p,
			       struct opt_layout *out);

typedef void opt_algorithm_fn(const struct opt_graph *g, const struct opt_params *p,
			      struct opt_layout *out);

struct opt_algorithm {
	const char *name;
	opt_algorithm_fn *run;
	const char *summary;
};

/* The table of algorithms; the first is the default. */
extern const struct opt_algorithm opt_algorithms[];
extern const size_t opt_nalgorithms;
/* Returns the algorithm called NAME, or NULL. */
const struct opt_algorithm *opt_algorithm_find(const char *name);
/* "c3 (default), cph, pettis-hansen or executed" into BUF. */
const char *opt_algorithm_list(char *buf, size_t len);

#endif
