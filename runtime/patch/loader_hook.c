/*
 * Objects loaded later, patched as the dynamic loader maps them.
 *
 * The loader tells debuggers of every change to the list of objects by
 * calling an empty function, the rendezvous (r_debug.r_brk,
 * _dl_debug_state): as dlopen starts (RT_ADD), and once the new objects
 * are mapped (RT_CONSISTENT), before they are relocated and before their
 * constructors run.  The runtime turns that function into a jump to
 * loader_changed(), which patches the planned objects then visible.  At
 * that point no thread can be running in a new object's code (nothing has
 * called into it yet), so its pages are written as at start-up, made
 * writable and executable again in turn, and its constructors and every
 * call after them are traced.  This works whoever calls dlopen, with or
 * without library-call tracing.
 *
 * The rendezvous is a lone `ret` (or `endbr64; ret`) and the alignment
 * padding after it: the jump goes over the padding's bytes first and the
 * `ret` last, a single byte, through /proc/self/mem so that the loader's
 * page stays executable for the threads that may run in it.  If the
 * function is not what is expected (a debugger's breakpoint is on it),
 * objects are patched when dlopen returns instead, as library-call
 * tracing sees it (live.c).
 */
#define _GNU_SOURCE
#include "patch.h"
#include "x86_length.h"

#include <errno.h>
#include <link.h>
#include <string.h>
#include <unistd.h>

static void (*on_change)(void);

/* Reached by a jump from the rendezvous, as if it had been called: the
 * loader holds its lock, the new objects are in its list. */
static void loader_changed(void)
{
	int saved = errno;

	on_change();
	errno = saved;
}

/* Length of the padding instruction at C (LEFT bytes at most): the nops
 * assemblers put between functions (0f 1f /0 with its prefixes and
 * operand bytes, 90, int3); 0 for anything else. */
static size_t nop_length(const uint8_t *c, size_t left)
{
	size_t i = 0;

	while (i < left && (c[i] == 0x66 || c[i] == 0x2e))
		i++;
	if (i < left && c[i] == 0x90)
		return i + 1;
	if (i == 0 && c[0] == 0xcc)
		return 1;
	if (i + 3 > left || c[i] != 0x0f || c[i + 1] != 0x1f)
		return 0;
	uint8_t modrm = c[i + 2], mod = modrm >> 6, rm = modrm & 7;
	if (mod == 3 || ((modrm >> 3) & 7) || (mod == 0 && rm == 5))
		return 0;
	size_t operand = x86_modrm_length(c + i + 2, left - i - 2);
	return operand ? i + 2 + operand : 0;
}

/* Where the rendezvous's `ret` is, if the bytes from it to the next
 * 16-byte boundary are that `ret` and padding, with room for a jump. */
static uintptr_t ret_with_room(uintptr_t brk)
{
	const uint8_t *c = (const uint8_t *)brk;
	static const uint8_t endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };

	if (!memcmp(c, endbr64, sizeof(endbr64)))
		c += sizeof(endbr64);
	if (c[0] != 0xc3)
		return 0;
	uintptr_t ret = (uintptr_t)c, end = (ret + 16) & ~(uintptr_t)15;
	if (end - ret < 5)
		return 0;
	for (uintptr_t at = ret + 1; at < end;) {
		size_t n = nop_length((const uint8_t *)at, end - at);
		if (!n)
			return 0;
		at += n;
	}
	return ret;
}

int loader_hook_install(void (*changed)(void), const char **why)
{
	uintptr_t brk = _r_debug.r_brk;
	uintptr_t ret = brk ? ret_with_room(brk) : 0;
	struct pool pool;

	if (!ret) {
		*why = "the loader's rendezvous function is not the plain return it should be "
		       "(a debugger's breakpoint on it?)";
		return -1;
	}
	/* the jump lands in a stub within reach: jmp *(%rip) to loader_changed */
	if (pool_map(&pool, ret, ret + 5, 16, why) != 0)
		return -1;
	static const uint8_t jmp_abs[] = { 0xff, 0x25, 0, 0, 0, 0 };
	uintptr_t to = (uintptr_t)loader_changed;
	memcpy(pool.rw, jmp_abs, sizeof(jmp_abs));
	memcpy(pool.rw + sizeof(jmp_abs), &to, sizeof(to));
	pool_seal(&pool);

	uint8_t jump[5] = { 0xe9 };
	int32_t d = (int32_t)(int64_t)(pool.rx - (ret + 5));
	memcpy(jump + 1, &d, 4);
	on_change = changed;
	int err = live_write_code(ret, jump, sizeof(jump));
	if (err) {
		*why = "writing the jump through /proc/self/mem";
		errno = err;
		pool_unmap(&pool);
		return -1;
	}
	return 0;
}
