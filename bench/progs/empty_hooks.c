/*
 * empty_hooks — -finstrument-functions hooks that do nothing, linked into a
 * benchmark variant to measure the bare cost of the compiler's hook calls
 * (two calls per function, with their argument set-up) apart from any
 * profiler's work.  Built as its own object, without -finstrument-functions,
 * and marked no_instrument_function as well so it can never recurse.
 */
#define NOINSTR __attribute__((no_instrument_function, noinline, used))

NOINSTR void __cyg_profile_func_enter(void *fn, void *call_site);
NOINSTR void __cyg_profile_func_exit(void *fn, void *call_site);

NOINSTR void __cyg_profile_func_enter(void *fn, void *call_site)
{
	(void)fn;
	(void)call_site;
}

NOINSTR void __cyg_profile_func_exit(void *fn, void *call_site)
{
	(void)fn;
	(void)call_site;
}
