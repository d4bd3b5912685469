/*
 * plan_check PROG [SPEC]: plans the patching of PROG as `record --patch`
 * would, writes the plan file, reads it back and checks every site on its
 * own terms, with capstone and the ELF file's bytes:
 *
 *   - the window's original bytes are the file's;
 *   - the relocated code, once its fixups are applied for a trampoline
 *     placed 1 GiB away, decodes to the original instructions one for one,
 *     every operand reaching the same absolute address (a RIP-relative
 *     operand, a branch's target, a call's return address);
 *   - the code resumes at the window's end, or ends in a jump or return.
 *
 * It prints one line per site ("site ADDR WINDOW FUNCTION KIND", KIND
 * jmp32 or int3: a trap site's window is its first instruction) and per
 * skipped function ("skip ADDR REASON-CODE NAME"), then "found N patched M
 * fragments F", and exits 1 after "bad ..." lines if any check fails.
 */
#include <capstone/capstone.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patch/plan.h"
#include "patch/select.h"
#include "readfile.h"
#include "symbols/code.h"
#include "xalloc.h"

#define TRAMPOLINE_DISTANCE (1ull << 30)

static int failures;
static csh cs_handle;	/* for cs_insn_group() in reach() */

#define BAD(...) (printf("bad " __VA_ARGS__), putchar('\n'), failures++)

/* Absolute target of a relative branch or RIP-relative operand, or 0. */
static uint64_t reach(const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;
	for (uint8_t i = 0; i < x->op_count; i++) {
		if (x->operands[i].type == X86_OP_MEM && x->operands[i].mem.base == X86_REG_RIP)
			return in->address + in->size + (uint64_t)x->operands[i].mem.disp;
		if (x->operands[i].type == X86_OP_IMM && cs_insn_group(cs_handle, in, X86_GRP_JUMP))
			return (uint64_t)x->operands[i].imm;
		if (x->operands[i].type == X86_OP_IMM && in->id == X86_INS_CALL)
			return (uint64_t)x->operands[i].imm;
	}
	return 0;
}

/* Decodes one instruction of CODE at *OFF (address BASE + *OFF). */
static int next(csh cs, const uint8_t *code, size_t len, size_t *off, uint64_t base, cs_insn *in)
{
	const uint8_t *p = code + *off;
	size_t left = len - *off;
	uint64_t at = base + *off;
	if (*off >= len || !cs_disasm_iter(cs, &p, &left, &at, in))
		return 0;
	*off = (size_t)(p - code);
	return 1;
}

static void check_site(csh cs, const struct patch_plan_site *s, const uint8_t *file_bytes,
		       uint8_t *code)
{
	cs_insn *o = cs_malloc(cs), *r = cs_malloc(cs);
	uint64_t tramp = s->addr + TRAMPOLINE_DISTANCE;
	size_t oo = 0, ro = 0;
	int ended = 0;

	if (memcmp(file_bytes, s->original, s->window))
		BAD("%#llx: original bytes differ from the file", (unsigned long long)s->addr);
	while (ro < s->code_len) {
		if (!next(cs, file_bytes, s->window, &oo, s->addr, o)) {
			BAD("%#llx: relocated code longer than the window", (unsigned long long)s->addr);
			break;
		}
		if (!next(cs, code, s->code_len, &ro, tramp, r)) {
			BAD("%#llx: relocated code does not decode", (unsigned long long)s->addr);
			break;
		}
		uint64_t want = reach(o);
		ended = 0;
		if (o->id == X86_INS_CALL) {
			/* lea rsp,[rsp-8]; push rax; lea rax,[rip+RET]; mov [rsp+8],rax; pop rax; jmp */
			if (r->id != X86_INS_LEA || !next(cs, code, s->code_len, &ro, tramp, r) ||
			    r->id != X86_INS_PUSH || !next(cs, code, s->code_len, &ro, tramp, r) ||
			    r->id != X86_INS_LEA || reach(r) != o->address + o->size) {
				BAD("%#llx: call not relocated as a jump after its return address",
				    (unsigned long long)o->address);
				break;
			}
			next(cs, code, s->code_len, &ro, tramp, r);
			next(cs, code, s->code_len, &ro, tramp, r);
			if (r->id != X86_INS_POP || !next(cs, code, s->code_len, &ro, tramp, r) ||
			    r->id != X86_INS_JMP || reach(r) != want) {
				BAD("%#llx: relocated call reaches %#llx, not %#llx",
				    (unsigned long long)o->address, (unsigned long long)reach(r),
				    (unsigned long long)want);
				break;
			}
			ended = 1;
			continue;
		}
		if (o->id == X86_INS_JRCXZ || o->id == X86_INS_JECXZ || o->id == X86_INS_LOOP ||
		    o->id == X86_INS_LOOPE || o->id == X86_INS_LOOPNE) {
			uint64_t hop = reach(r);
			if (r->id != o->id || !next(cs, code, s->code_len, &ro, tramp, r) ||
			    r->id != X86_INS_JMP || !next(cs, code, s->code_len, &ro, tramp, r) ||
			    r->id != X86_INS_JMP || r->address != hop || reach(r) != want) {
				BAD("%#llx: %s not expanded to reach %#llx",
				    (unsigned long long)o->address, o->mnemonic, (unsigned long long)want);
				break;
			}
			continue;
		}
		if (r->id != o->id) {
			BAD("%#llx: %s relocated as %s", (unsigned long long)o->address, o->mnemonic,
			    r->mnemonic);
			break;
		}
		if (reach(r) != want) {
			BAD("%#llx: %s %s reaches %#llx once moved, not %#llx",
			    (unsigned long long)o->address, o->mnemonic, o->op_str,
			    (unsigned long long)reach(r), (unsigned long long)want);
			break;
		}
		if (!want && (o->size != r->size || memcmp(o->bytes, r->bytes, o->size)))
			BAD("%#llx: %s changed bytes", (unsigned long long)o->address, o->mnemonic);
		ended = o->id == X86_INS_JMP || o->id == X86_INS_RET;
	}
	/* what the window holds beyond the copied code is padding */
	while (next(cs, file_bytes, s->window, &oo, s->addr, o))
		if (o->id != X86_INS_NOP && o->id != X86_INS_INT3)
			BAD("%#llx: %s of the window not relocated", (unsigned long long)o->address,
			    o->mnemonic);
	if (s->resume ? s->resume != s->addr + s->window : !ended)
		BAD("%#llx: resumes at %#llx after code that %s", (unsigned long long)s->addr,
		    (unsigned long long)s->resume, ended ? "ends in a jump" : "falls through");
	cs_free(o, 1);
	cs_free(r, 1);
}

/*
 * A short jump's island: within its reach, and either padding (nop, int3)
 * between functions as the file has it, or inside the window of another
 * site patched by a 5-byte jump, past that jump.  Printed as "island ADDR
 * FUNCTION" (the test checks no branch lands in it).
 */
static void check_island(struct code_file *cf, const struct patch_plan_site *sites,
			 uint32_t first, uint32_t n, const struct patch_plan_site *s)
{
	uint64_t x = s->island;
	int64_t rel = (int64_t)(x - (s->addr + 2));
	const struct patch_plan_site *host = NULL;

	if (rel < -128 || rel > 127)
		BAD("%#llx: island %#llx out of the short jump's reach", (unsigned long long)s->addr,
		    (unsigned long long)x);
	for (uint32_t k = first; k < first + n; k++)
		if (x < sites[k].addr + sites[k].window && sites[k].addr < x + PATCH_ISLAND)
			host = &sites[k];
	if (host && (host->kind != PATCH_JMP32 || x < host->addr + 5 ||
		     x + PATCH_ISLAND > host->addr + host->window))
		BAD("%#llx: island %#llx overlaps the window at %#llx, not past its jump",
		    (unsigned long long)s->addr, (unsigned long long)x, (unsigned long long)host->addr);
	uint8_t *b = code_file_read(cf, x, PATCH_ISLAND);
	if (!b || memcmp(b, s->island_original, PATCH_ISLAND))
		BAD("%#llx: island %#llx bytes differ from the file", (unsigned long long)s->addr,
		    (unsigned long long)x);
	for (unsigned k = 0; !host && b && k < PATCH_ISLAND; k++)
		if (b[k] != 0x90 && b[k] != 0xcc && b[k] != 0x66 && b[k] != 0x0f && b[k] != 0x1f &&
		    b[k] != 0x00 && b[k] != 0x40 && b[k] != 0x44 && b[k] != 0x80 && b[k] != 0x84 &&
		    b[k] != 0x2e)
			BAD("%#llx: island %#llx in padding that is no nop", (unsigned long long)s->addr,
			    (unsigned long long)x);
	free(b);
	printf("island %#llx 5 %#llx\n", (unsigned long long)x, (unsigned long long)s->function);
}

/* Applies the site's fixups as the runtime would, for TRAMP. */
static void apply_fixups(const struct patch_plan_site *s, const struct patch_plan_fixup *fx,
			 uint8_t *code, uint64_t tramp)
{
	for (uint32_t k = 0; k < s->nfixups; k++) {
		const struct patch_plan_fixup *f = &fx[s->first_fixup + k];
		int64_t v = (int64_t)(f->target - (tramp + f->insn_end));
		int32_t v32 = (int32_t)v;
		if (v != v32 || f->at + 4 > f->insn_end || f->insn_end > s->code_len) {
			BAD("%#llx: fixup %u out of range", (unsigned long long)s->addr, k);
			continue;
		}
		memcpy(code + f->at, &v32, 4);
	}
}

int main(int argc, char **argv)
{
	struct patch_spec spec;
	struct patch_plan plan;
	char *bytes;
	size_t size;

	if (argc < 2) {
		fprintf(stderr, "usage: plan_check PROG [SPEC]\n");
		return 2;
	}
	patch_spec_parse(argc > 2 ? argv[2] : NULL, argv[1], &spec);
	patch_plan_init(&plan);
	patch_spec_plan(&spec, &plan);
	if (patch_plan_write(&plan, "check.plan") != 0 || read_file("check.plan", 0, &bytes, &size))
		return 1;

	/* the tables lie back to back, not aligned: copied out, as the runtime reads them */
	struct patch_plan_header hdr, *h = &hdr;
	size_t need = sizeof(hdr);
	if (size < need)
		return BAD("plan header"), 1;
	memcpy(&hdr, bytes, sizeof(hdr));
	if (memcmp(h->magic, PATCH_PLAN_MAGIC, 8) || h->version != PATCH_PLAN_VERSION)
		return BAD("plan header"), 1;
	size_t objs_at = need;
	need += h->nobjects * sizeof(struct patch_plan_object);
	size_t sites_at = need;
	need += h->nsites * sizeof(struct patch_plan_site);
	size_t fx_at = need;
	need += h->nfixups * sizeof(struct patch_plan_fixup);
	const uint8_t *code = (const uint8_t *)bytes + need;
	need += h->code_bytes;
	const char *strings = bytes + need;
	need += h->string_bytes;
	if (need != size)
		return BAD("plan size %zu, its counts say %zu", size, need), 1;
	struct patch_plan_object *objs = xcalloc(h->nobjects + 1, sizeof(*objs));
	struct patch_plan_site *sites = xcalloc(h->nsites + 1, sizeof(*sites));
	struct patch_plan_fixup *fx = xcalloc(h->nfixups + 1, sizeof(*fx));
	memcpy(objs, bytes + objs_at, h->nobjects * sizeof(*objs));
	memcpy(sites, bytes + sites_at, h->nsites * sizeof(*sites));
	memcpy(fx, bytes + fx_at, h->nfixups * sizeof(*fx));

	csh cs;
	cs_open(CS_ARCH_X86, CS_MODE_64, &cs);
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	cs_handle = cs;
	for (uint32_t i = 0; i < h->nobjects; i++) {
		const char *path = strings + objs[i].path;
		struct code_file *cf = code_file_open(path);
		for (uint32_t k = objs[i].first_site; cf && k < objs[i].first_site + objs[i].nsites;
		     k++) {
			const struct patch_plan_site *s = &sites[k];
			uint8_t *file_bytes = code_file_read(cf, s->addr, s->window);
			uint8_t relocated[256];
			if (!file_bytes || s->code_len > sizeof(relocated)) {
				BAD("%#llx: window not in the file", (unsigned long long)s->addr);
				free(file_bytes);
				continue;
			}
			memcpy(relocated, code + s->code, s->code_len);
			apply_fixups(s, fx, relocated, s->addr + TRAMPOLINE_DISTANCE);
			check_site(cs, s, file_bytes, relocated);
			printf("site %#llx %u %#llx %s\n", (unsigned long long)s->addr, s->window,
			       (unsigned long long)s->function, s->kind == PATCH_INT3 ? "int3" : s->kind == PATCH_JMP8 ? "jmp8" : "jmp32");
			if (s->kind == PATCH_JMP8)
				check_island(cf, sites, objs[i].first_site, objs[i].nsites, s);
			free(file_bytes);
		}
		code_file_close(cf);
	}
	uint64_t found = 0, patched = 0, fragments = 0;
	for (size_t i = 0; i < plan.nobjects; i++) {
		const struct patch_coverage *cov = &plan.coverage[i];
		for (size_t k = 0; k < cov->nskipped; k++)
			printf("skip %#llx %u %s\n", (unsigned long long)cov->skipped[k].addr,
			       cov->skipped[k].why, cov->skipped[k].name ? cov->skipped[k].name : "-");
		found += cov->found;
		patched += cov->patched;
		fragments += cov->fragments;
	}
	printf("found %llu patched %llu fragments %llu\n", (unsigned long long)found,
	       (unsigned long long)patched, (unsigned long long)fragments);
	cs_close(&cs);
	free(objs);
	free(sites);
	free(fx);
	free(bytes);
	patch_plan_release(&plan);
	patch_spec_release(&spec);
	return failures ? 1 : 0;
}
