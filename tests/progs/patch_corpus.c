/*
 * Function entries of every shape entry patching meets, for record
 * --patch: the compiler's (tiny bodies, RIP-relative loads and stores, an
 * SSE constant, a null check in the first bytes, a jump table, a tail jump
 * as the whole body, recursion, a loop back to the entry), each stamped
 * out VARIANTS times with different constants, and hand-written ones whose
 * bytes no compiler flag changes (asm_*: a loop to offset 0, a branch into
 * the first bytes after endbr64, jrcxz, a call first, a body of one byte
 * with and without padding after it).  Prints a checksum of every result,
 * so a patched run must print the same line as an unpatched one.
 *
 * usage: patch_corpus [ROUNDS]
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline, noclone))

volatile int sink;
int shared_value = 7;
double shared_scale = 1.5;

struct node {
	struct node *next;
	int value;
};

NOINLINE int callee(int x)
{
	return x * 3 + sink;
}

#define SHAPES(n)                                                                   \
	static int global_##n = n;                                                  \
	NOINLINE void tiny_void_##n(void) {}                                        \
	NOINLINE int tiny_zero_##n(void) { return 0; }                              \
	NOINLINE int rip_load_##n(void) { return global_##n; }                      \
	NOINLINE void rip_store_##n(int x) { global_##n = x + n; }                  \
	NOINLINE double sse_const_##n(double x) { return x * (n + 0.25); }         \
	NOINLINE int null_check_##n(const int *p) { return p ? *p + n : -n; }       \
	NOINLINE int tail_jump_##n(int x) { return callee(x + n); }                 \
	NOINLINE int recursion_##n(int k) { return k < 2 ? k + n : recursion_##n(k - 1) + recursion_##n(k - 2); } \
	NOINLINE int last_value_##n(const struct node *l)                           \
	{                                                                           \
		while (l->next)                                                     \
			l = l->next;                                                \
		return l->value + n;                                                \
	}                                                                           \
	NOINLINE int gcd_##n(int a, int b) { return b ? gcd_##n(b, a % b) : a + n; } \
	NOINLINE int jump_table_##n(int k)                                          \
	{                                                                           \
		switch (k) {                                                        \
		case 0: return n + 11;                                              \
		case 1: return sink + n;                                            \
		case 2: return n * 7;                                               \
		case 3: return sink * n;                                            \
		case 4: return n - 5;                                               \
		case 5: return sink - n;                                            \
		case 6: return n ^ 0x55;                                            \
		default: return -1;                                                 \
		}                                                                   \
	}                                                                           \
	static long run_##n(long acc, const struct node *l)                        \
	{                                                                           \
		int v = n;                                                          \
		tiny_void_##n();                                                    \
		acc += tiny_zero_##n();                                             \
		rip_store_##n((int)acc & 0xff);                                     \
		acc += rip_load_##n();                                              \
		acc += (long)sse_const_##n(2.0);                                    \
		acc += null_check_##n(&v) + null_check_##n(NULL);                   \
		acc += tail_jump_##n(v);                                            \
		acc += recursion_##n(6);                                            \
		acc += last_value_##n(l);                                           \
		acc += gcd_##n(1071 + n, 462);                                      \
		for (int k = 0; k < 8; k++)                                         \
			acc += jump_table_##n(k);                                   \
		return acc;                                                         \
	}

SHAPES(0) SHAPES(1) SHAPES(2) SHAPES(3) SHAPES(4) SHAPES(5) SHAPES(6) SHAPES(7)
SHAPES(8) SHAPES(9) SHAPES(10) SHAPES(11) SHAPES(12) SHAPES(13) SHAPES(14) SHAPES(15)

/*
 * Hand-written entries.  asm_cetbug: endbr64, then a loop head 2 bytes
 * into the 5 the jump would take (a window that must be refused, measured
 * from the patch address, not the function's).  asm_loop0: a loop back
 * to offset 0 (patchable: the target is the entry itself).  asm_into: a
 * loop head inside the first 5 bytes.  asm_jrcxz and asm_call_first: a
 * jrcxz and a call in the window.  asm_one_byte: `ret` followed by
 * padding; asm_no_room: `ret` directly followed by another function.
 */
__asm__(".text\n"
	".p2align 4\n"
	".globl asm_cetbug\n.type asm_cetbug,@function\n"
	"asm_cetbug:\n"
	"	endbr64\n"
	"	mov %edi, %eax\n"
	"1:	add $3, %eax\n"
	"	cmp $100, %eax\n"
	"	jb 1b\n"
	"	ret\n"
	".size asm_cetbug, .-asm_cetbug\n"
	".p2align 4\n"
	".globl asm_loop0\n.type asm_loop0,@function\n"
	"asm_loop0:\n"
	"	add $1, %eax\n"
	"	dec %edi\n"
	"	jnz asm_loop0\n"
	"	ret\n"
	".size asm_loop0, .-asm_loop0\n"
	".p2align 4\n"
	".globl asm_into\n.type asm_into,@function\n"
	"asm_into:\n"
	"	xor %eax, %eax\n"
	"1:	inc %eax\n"
	"	cmp %edi, %eax\n"
	"	jl 1b\n"
	"	ret\n"
	".size asm_into, .-asm_into\n"
	".p2align 4\n"
	".globl asm_jrcxz\n.type asm_jrcxz,@function\n"
	"asm_jrcxz:\n"
	"	mov %rdi, %rcx\n"
	"	jrcxz 1f\n"
	"	mov $1, %eax\n"
	"	ret\n"
	"1:	xor %eax, %eax\n"
	"	ret\n"
	".size asm_jrcxz, .-asm_jrcxz\n"
	".p2align 4\n"
	".globl asm_call_first\n.type asm_call_first,@function\n"
	"asm_call_first:\n"
	"	push %rbx\n"
	"	call callee\n"
	"	add $1, %eax\n"
	"	pop %rbx\n"
	"	ret\n"
	".size asm_call_first, .-asm_call_first\n"
	".p2align 4\n"
	".globl asm_one_byte\n.type asm_one_byte,@function\n"
	"asm_one_byte:\n"
	"	ret\n"
	".size asm_one_byte, .-asm_one_byte\n"
	".p2align 4\n"
	".globl asm_no_room\n.type asm_no_room,@function\n"
	"asm_no_room:\n"
	"	ret\n"
	".size asm_no_room, .-asm_no_room\n"
	".globl asm_after\n.type asm_after,@function\n"
	"asm_after:\n"
	"	mov $5, %eax\n"
	"	ret\n"
	".size asm_after, .-asm_after\n");

int asm_cetbug(int x);
int asm_loop0(int n);
int asm_into(int n);
int asm_jrcxz(long x);
int asm_call_first(int x);
void asm_one_byte(void);
void asm_no_room(void);
int asm_after(void);

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 1;
	struct node tail = { NULL, 4 }, mid = { &tail, 2 }, head = { &mid, 1 };
	long acc = 0;

	for (int r = 0; r < rounds; r++) {
		acc = run_0(acc, &head) + run_1(acc, &head) + run_2(acc, &head) +
		      run_3(acc, &head) + run_4(acc, &head) + run_5(acc, &head) +
		      run_6(acc, &head) + run_7(acc, &head) + run_8(acc, &head) +
		      run_9(acc, &head) + run_10(acc, &head) + run_11(acc, &head) +
		      run_12(acc, &head) + run_13(acc, &head) + run_14(acc, &head) +
		      run_15(acc, &head);
		acc %= 1000003;
		acc += asm_cetbug(r) + asm_loop0(3) + asm_into(4) + asm_jrcxz(r) +
		       asm_call_first(r) + asm_after();
		asm_one_byte();
		asm_no_room();
	}
	printf("checksum %ld\n", acc);
	return 0;
}
