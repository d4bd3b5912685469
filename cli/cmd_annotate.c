/*
 * callscope annotate [-i PATH] [--pid=PID] [--tid=TID] FUNC
 * callscope annotate --counts [-i PATH] [--json] [FUNC|FILE...]
 *
 * One sampled function up close: its source lines and its machine code
 * (disassembled with capstone from the binary on disk), each with the
 * samples whose PC fell on it, the hottest instruction marked.  Samples
 * are matched to instructions by link-time address, so the binary must be
 * the one that ran (its build ID is checked by the symbolizer).
 * With --counts, each source line's execution count instead, from the
 * program's --coverage data (cli/annotate_counts.c).
 */
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/annotate_counts.h"
#include "cli/commands.h"
#include "cli/demangle_option.h"
#include "cli/find_function.h"
#include "cli/recording_arg.h"
#include "load/load.h"
#include "readfile.h"
#include "die.h"
#include "symbols/code.h"
#include "symbols/disasm.h"
#include "symbols/symtab.h"
#include "x86_length.h"
#include "xalloc.h"

static const char usage_text[] =
	"usage: callscope annotate [-i PATH] [--pid=PID] [--tid=TID] FUNC [PATH]\n"
	"       callscope annotate --counts [-i PATH] [--json] [FUNC|FILE...]\n"
	"\n"
	"  -i, --input PATH  recording to read, or PATH after FUNC (default: callscope.data)\n"
	"      --pid PID     only this process\n"
	"      --tid TID     only this thread\n"
	"  FUNC              NAME or OBJECT:NAME, as 'callscope report' shows it\n"
	"      --counts      each source line's execution count (a program built with\n"
	"                    --coverage): FUNC or FILE, or every file\n"
	"      --json        with --counts: {\"files\": [{\"file\", \"lines\": [{\"file\", \"line\", \"count\"}]}]}\n"
	NO_DEMANGLE_HELP;

/* Samples per link-time address of the function. */
struct pc_count {
	uint64_t addr;
	uint64_t samples;
};

struct annotate_state {
	const struct data_file *df;
	const struct profile *p;
	uint32_t func;
	uint32_t pid, image;
	struct pc_count *pcs;
	size_t npcs, alloc;
	uint64_t self;
};

static void on_begin(void *ctx, const struct thread_info *info, double a, double b)
{
	struct annotate_state *s = ctx;
	(void)a, (void)b;
	s->pid = info->pid;
	s->image = info->image;
}

/* The load bias of the function's object in the current process image. */
static int object_bias(const struct annotate_state *s, uint64_t pc, uint64_t *bias)
{
	const char *object = s->p->funcs[s->func].object;

	for (size_t i = 0; i < s->df->nobjects; i++) {
		const struct data_object *o = &s->df->objects[i];
		if (o->pid != s->pid || o->image != s->image || strcmp(o->path, object))
			continue;
		for (size_t k = 0; k < o->nseg; k++)
			if (pc - o->load_bias - o->segs[k].vaddr < o->segs[k].memsz) {
				*bias = o->load_bias;
				return 0;
			}
	}
	return -1;
}

static void on_sample(void *ctx, const struct replay_sample *smp)
{
	struct annotate_state *s = ctx;
	uint64_t bias;

	if (smp->funcs[0] != s->func || object_bias(s, smp->addrs[0], &bias))
		return;
	uint64_t addr = smp->addrs[0] - bias;
	s->self += smp->weight;
	for (size_t i = 0; i < s->npcs; i++)
		if (s->pcs[i].addr == addr) {
			s->pcs[i].samples += smp->weight;
			return;
		}
	ALLOC_GROW(s->pcs, s->npcs + 1, s->alloc);
	s->pcs[s->npcs++] = (struct pc_count){ addr, smp->weight };
}

static uint64_t samples_at(const struct annotate_state *s, uint64_t addr)
{
	for (size_t i = 0; i < s->npcs; i++)
		if (s->pcs[i].addr == addr)
			return s->pcs[i].samples;
	return 0;
}

/* Line N of FILE without its newline, into BUF; "" when unreadable. */
static const char *source_line(const char *file, int n, char *buf, size_t size)
{
	FILE *f = file ? fopen_regular(file) : NULL;
	int at = 0;

	buf[0] = '\0';
	if (!f)
		return buf;
	while (fgets(buf, (int)size, f))
		if (++at == n)
			break;
	fclose(f);
	if (at != n)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

struct line_row {
	const char *file;	/* borrowed from the symtab */
	int line;
	uint64_t samples;
};

static int by_line(const void *a, const void *b)
{
	const struct line_row *x = a, *y = b;
	int c = strcmp(x->file ? x->file : "", y->file ? y->file : "");
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

static struct symtab *object_symtab(const struct data_file *df, const char *path)
{
	struct symtab *st = symtab_new();

	for (size_t i = 0; i < df->nobjects; i++) {
		const struct data_object *o = &df->objects[i];
		if (strcmp(o->path, path))
			continue;
		/* bias 0: addresses are link-time here */
		load_symtab_add(st, o, 0);
		break;
	}
	return st;
}

/* One row of the instruction listing: an instruction, or bytes not decoded. */
struct insn_row {
	uint64_t addr;
	char text[200];
};

/*
 * The SIZE bytes of CODE at START as rows, decoded as far as capstone
 * can.  Capstone 4 knows no VEX-encoded mask-register instruction (the
 * kmovd of glibc's *_evex string functions, which an AVX-512 machine
 * runs): stopping there lost the listing, and the samples, of everything
 * after it.  Past bytes it cannot decode, decoding resumes after them
 * when they are one VEX- or EVEX-encoded instruction (common/x86_length.h),
 * as such instructions mostly are; else at the next address known to
 * start an instruction: a sampled PC, or the target of a direct jump
 * decoded before (the jump over such bytes).  The bytes skipped make one
 * row.  Returns a malloc'd array the caller frees, its
 * length in *N.
 */
static struct insn_row *decode_rows(const struct disasm *cs, csh handle, const uint8_t *code,
				    uint64_t size, uint64_t start,
				    const struct annotate_state *s, size_t *n)
{
	struct insn_row *rows = NULL;
	uint64_t *targets = NULL;
	size_t nrows = 0, alloc = 0, ntargets = 0, targets_alloc = 0;
	cs_insn *insn = cs->malloc(handle);
	uint64_t off = 0;

	while (insn && off < size) {
		const uint8_t *p = code + off;
		size_t left = size - off;
		uint64_t at = start + off;
		while (left && cs->disasm_iter(handle, &p, &left, &at, insn)) {
			ALLOC_GROW(rows, nrows + 1, alloc);
			rows[nrows].addr = insn->address;
			snprintf(rows[nrows++].text, sizeof(rows->text), "%s %s", insn->mnemonic,
				 insn->op_str);
			if (insn->mnemonic[0] == 'j' && !strncmp(insn->op_str, "0x", 2)) {
				ALLOC_GROW(targets, ntargets + 1, targets_alloc);
				targets[ntargets++] = strtoull(insn->op_str, NULL, 16);
			}
		}
		if (!left)
			break;
		/* one instruction newer than capstone, when its encoding says
		 * how long it is, else up to the next instruction known */
		size_t vex = x86_vex_length(p, left);
		uint64_t next = vex ? at + vex : start + size;
		for (size_t i = 0; i < s->npcs && !vex; i++)
			if (s->pcs[i].addr > at && s->pcs[i].addr < next)
				next = s->pcs[i].addr;
		for (size_t i = 0; i < ntargets && !vex; i++)
			if (targets[i] > at && targets[i] < next)
				next = targets[i];
		ALLOC_GROW(rows, nrows + 1, alloc);
		rows[nrows].addr = at;
		snprintf(rows[nrows++].text, sizeof(rows->text), "(%llu bytes not decoded)",
			 (unsigned long long)(next - at));
		off = next - start;
	}
	if (insn)
		cs->free(insn, 1);
	free(targets);
	*n = nrows;
	return rows;
}

static void print_annotation(const struct data_file *df, const struct annotate_state *s,
			     const char *input)
{
	const struct func *fn = &s->p->funcs[s->func];
	/* The symbol's size, or up to a sampled PC past it: its byte at least
	 * (NEED), and its instruction's longest (15 bytes) where the code
	 * goes on that far (WANT): a function may end its object's .text. */
	uint64_t need = fn->size, want = fn->size;
	uint64_t hottest = 0, total = s->p->samples ? s->p->samples : 1;
	char text[512];

	for (size_t i = 0; i < s->npcs; i++) {
		uint64_t off = s->pcs[i].addr - fn->addr;
		if (s->pcs[i].addr >= fn->addr && off + 1 > need)
			need = off + 1;
		if (s->pcs[i].addr >= fn->addr && off + 16 > want)
			want = off + 16;
		if (s->pcs[i].samples > hottest)
			hottest = s->pcs[i].samples;
	}
	printf("# %s in %s: %llu self samples (%.2f %% of %llu)\n", fn->name, fn->object,
	       (unsigned long long)s->self, 100.0 * (double)s->self / (double)total,
	       (unsigned long long)s->p->samples);
	uint64_t size = 0;
	uint8_t *code = need ? code_read(fn->object, fn->addr, need, want, &size) : NULL;
	if (!code)
		die("cannot read the code of '%s' from '%s'; the binary is needed as it ran "
		    "when '%s' was recorded", fn->name, fn->object, input);
	csh handle;
	const char *why;
	const struct disasm *cs = disasm_library(&why);
	if (!cs)
		die("cannot load the disassembler (%s); install the capstone library", why);
	if (cs->open(CS_ARCH_X86, CS_MODE_64, &handle) != CS_ERR_OK)
		die("cannot start the disassembler (capstone)");
	size_t n;
	struct insn_row *insn = decode_rows(cs, handle, code, size, fn->addr, s, &n);
	struct symtab *st = object_symtab(df, fn->object);
	struct line_row *rows = xcalloc(n + 1, sizeof(*rows));
	size_t nrows = 0;

	/* source lines: every instruction's line, samples summed */
	for (size_t i = 0; i < n; i++) {
		struct symbol_info si;
		symtab_lookup(st, insn[i].addr, 1, &si);
		uint64_t c = samples_at(s, insn[i].addr);
		size_t k = 0;
		while (k < nrows && !(rows[k].line == si.line &&
				      !strcmp(rows[k].file ? rows[k].file : "", si.file ? si.file : "")))
			k++;
		if (k == nrows)
			rows[nrows++] = (struct line_row){ si.file, si.line, 0 };
		rows[k].samples += c;
	}
	qsort(rows, nrows, sizeof(*rows), by_line);
	printf("#\n# source lines\n%9s %7s  %s\n", "samples", "pct", "line");
	for (size_t k = 0; k < nrows; k++) {
		const char *base = rows[k].file ? strrchr(rows[k].file, '/') : NULL;
		printf("%9llu %7.2f  %s:%d  %s\n", (unsigned long long)rows[k].samples,
		       100.0 * (double)rows[k].samples / (double)total,
		       base ? base + 1 : rows[k].file ? rows[k].file : "??", rows[k].line,
		       source_line(rows[k].file, rows[k].line, text, sizeof(text)));
	}
	printf("#\n# instructions ('>' marks the hottest)\n%10s %7s  %-8s %s\n", "samples",
	       "pct", "address", "instruction");
	for (size_t i = 0; i < n; i++) {
		struct symbol_info si;
		uint64_t c = samples_at(s, insn[i].addr);
		symtab_lookup(st, insn[i].addr, 1, &si);
		const char *base = si.file ? strrchr(si.file, '/') : NULL;
		printf("%c%9llu %7.2f  %8llx %-40s %s:%d\n", c && c == hottest ? '>' : ' ',
		       (unsigned long long)c, 100.0 * (double)c / (double)total,
		       (unsigned long long)insn[i].addr, insn[i].text,
		       base ? base + 1 : si.file ? si.file : "??", si.line);
	}
	free(insn);
	cs->close(&handle);
	free(rows);
	symtab_free(st);
	free(code);
}

int cmd_annotate(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "counts", no_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		NO_DEMANGLE_OPTION,
		{ NULL, 0, NULL, 0 },
	};
	const char *input = NULL;
	struct load_filter filter = { -1, -1 };
	int opt, counts = 0, json = 0;

	while ((opt = getopt_long(argc, argv, "i:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i': input = optarg; break;
		case 'c': counts = 1; break;
		case 'j': json = 1; break;
		case 'p': filter.pid = load_parse_id("--pid", optarg); break;
		case 't': filter.tid = load_parse_id("--tid", optarg); break;
		case OPT_NO_DEMANGLE: demangle_set_enabled(0); break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	if (counts)
		return annotate_counts(input ? input : RECORDING_DEFAULT, &filter, argv + optind,
				       argc - optind, json);
	if (json)
		usage_die("--json goes with --counts; see 'callscope annotate --help'");
	if (optind >= argc) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	input = recording_arg("annotate", input, argc, argv, optind + 1);
	struct data_file df;
	if (data_file_load(input, &df) != 0)
		return EXIT_FATAL;
	struct load_stats stats;
	struct profile *p = load_profile(&df, &filter, &stats);
	if (!p->samples)
		die("'%s' holds no samples; record with --sample, or a program without hooks",
		    input);
	struct annotate_state s;
	memset(&s, 0, sizeof(s));
	s.df = &df;
	s.p = p;
	s.func = find_function(p, argv[optind], "annotate", input);
	if (!p->funcs[s.func].self_samples)
		die("'%s' has no samples of its own in '%s'; 'callscope report' lists the "
		    "sampled functions", argv[optind], input);
	const struct replay_visitor v = { .ctx = &s, .thread_begin = on_begin, .sample = on_sample };
	struct load_stats more;
	load_replay(&df, &filter, p, &v, &more);
	stats.salvaged |= more.salvaged;
	load_sum_samples(&df, &filter, p, &v, &more);
	stats.salvaged |= more.salvaged;
	print_annotation(&df, &s, input);
	free(s.pcs);
	profile_free(p);
	data_file_release(&df);
	return stats.salvaged ? EXIT_SALVAGED : 0;
}
