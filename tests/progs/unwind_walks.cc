/*
 * The walks of the stack a program makes itself, through functions built
 * without hooks: _Unwind_Backtrace called directly, backtrace(), and a
 * C++ exception thrown from the innermost and caught in walk_main.  Each
 * walk prints the functions of the program it met (dladdr: link with
 * -rdynamic), so a walk that stops early prints fewer.
 */
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <execinfo.h>
#include <stdexcept>
#include <unwind.h>

static void print_named(const char *how, void *const *pcs, int n)
{
	printf("%s:", how);
	for (int i = 0; i < n; i++) {
		Dl_info info;
		if (dladdr(pcs[i], &info) && info.dli_sname &&
		    (strncmp(info.dli_sname, "walk_", 5) == 0 || strcmp(info.dli_sname, "main") == 0))
			printf(" %s", info.dli_sname);
	}
	printf("\n");
}

struct walk {
	void *pc[64];
	int n;
};

static _Unwind_Reason_Code step(struct _Unwind_Context *c, void *arg)
{
	walk *w = static_cast<walk *>(arg);
	if (w->n < 64)
		w->pc[w->n++] = (void *)_Unwind_GetIP(c);
	return _URC_NO_REASON;
}

extern "C" __attribute__((noinline)) void walk_leaf(int depth)
{
	walk w = { { 0 }, 0 };
	void *pcs[64];

	_Unwind_Backtrace(step, &w);
	print_named("_Unwind_Backtrace", w.pc, w.n);
	print_named("backtrace", pcs, backtrace(pcs, 64));
	if (depth % 2)
		throw std::runtime_error("odd");
}

extern "C" __attribute__((noinline)) void walk_inner(int depth)
{
	walk_leaf(depth);
	__asm__ volatile("");
}

extern "C" __attribute__((noinline)) void walk_outer(int depth)
{
	walk_inner(depth);
	__asm__ volatile("");
}

extern "C" __attribute__((noinline)) int walk_main(int rounds)
{
	int caught = 0;

	for (int i = 0; i < rounds; i++) {
		try {
			walk_outer(i);
		} catch (const std::exception &e) {
			caught++;
		}
	}
	return caught;
}

int main(int argc, char **)
{
	printf("caught %d\n", walk_main(argc + 3));
	return 0;
}
