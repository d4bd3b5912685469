/*
 * Start-up and shutdown of the runtime: read the contract the launcher
 * left in the environment, measure the hooks' cost, describe the process,
 * and arrange for thread ends, forks and the process exit to be recorded.
 * Without a valid contract (the library linked into a program that was not
 * started by `callscope record`), or in a setuid/setgid program, the
 * runtime stays inert and the hooks cost a test and a return.
 */
#define _GNU_SOURCE
#include "runtime.h"
#include "sampler.h"
#include "control.h"
#include "libcall/libcall.h"

#include <cpuid.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <string.h>
#include <unistd.h>

struct runtime_config runtime_config;

static int main_bias_of(struct dl_phdr_info *info, size_t size, void *out)
{
	(void)size;
	*(uint64_t *)out = info->dlpi_addr;
	return 1;	/* the first object is the main program */
}

/* Trigger functions are named by link-time address in the main program:
 * moves them to where it is loaded. */
static void set_triggers(struct contract *c)
{
	uint64_t bias = 0;

	if (!c->has_start && !c->nstops)
		return;
	dl_iterate_phdr(main_bias_of, &bias);
	c->start.addr += bias;
	for (uint32_t i = 0; i < c->nstops; i++)
		c->stops[i].addr += bias;
	capture_state.start_armed = c->has_start;
	capture_state.on = !c->has_start;
}

/* The exiting thread's open calls end first (thread.c says why), and
 * its sampling with them: the rest is the runtime's work.  Once: an
 * atexit handler may end the process by _exit() after this one ran. */
void runtime_process_exiting(int measure_hooks)
{
	static int ended;

	if (ended)
		return;
	ended = 1;
	thread_process_exiting(trace_current());
	sampler_process_exiting();
	if (measure_hooks)
		calibrate_at_exit();
	process_write_end(PROCESS_END_EXIT);
}

static void process_exiting(void)
{
	runtime_process_exiting(1);
}

/* The child of fork() is a process of its own: its sections, its
 * control socket (served by a thread of its own when FORKED, not in a
 * child of clone()), then the calling thread's own file (thread.c). */
static void child_starts(int forked)
{
	struct thread_state *t = trace_current();
	pid_t parent = runtime_config.pid;

	runtime_config.pid = getpid();
	calibrate_after_fork();
	if (process_write_start(parent) != 0) {
		runtime_config.active = 0;
		thread_after_fork_unrecorded(t);
		return;
	}
	process_image_mark();
	control_after_fork(forked);
	thread_after_fork(t);
}

static void after_fork_child(void)
{
	process_fork_child();
	child_starts(1);
}

void runtime_cloned(void)
{
	fd_above_limit_cloned();
	child_starts(0);
	sampler_forked();
}

int callscope_xsave_ok;

__attribute__((constructor)) static void runtime_init(void)
{
	const char *why = NULL;
	const char *text;
	struct contract *contract = &runtime_config.contract;
	unsigned a, b, c, d;

	if (getauxval(AT_SECURE))
		return;
	callscope_xsave_ok = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_OSXSAVE);
	rt_log_init();
	text = secure_getenv(CONTRACT_ENV);
	if (!text)
		return;
	if (contract_parse(text, contract, &why) != 0) {
		rt_warn("ignoring " CONTRACT_ENV, why);
		return;
	}
	/* when an exec started this image, the one it replaced ended here */
	struct clock_pair started = runtime_now_pair();
	set_triggers(contract);
	trace_fast_paths_choose(contract);
	if (contract->start_stopped)
		capture_state.on = 0;
	runtime_config.pid = getpid();
	fd_above_limit_install();
	cpu_wait_start();

	/* the hooks' cost is subtracted from traced calls; a run that only
	 * samples has none, and saves the calibration's milliseconds, and
	 * one timed by samples counts the samples in the hooks instead */
	if (calls_timed_by_clock(contract))
		calibrate_at_start(text);
	if (process_write_start(getppid()) != 0)
		return;
	process_image_replaced(started.clock, started.mono_ns);
	if (thread_lifecycle_install() != 0)
		return;
	pthread_atfork(process_fork_prepare, process_fork_parent, after_fork_child);
	atexit(process_exiting);
	signals_install();
	signal_masks_resolve();
	runtime_config.active = 1;
	if (!contract->sample_only)
		unwind_describe_return_points();
	/* before main and before the runtime starts threads of its own */
	if (contract->patch)
		patch_install();
	if (calls_timed_by_clock(contract))
		cpu_wait_open_aside();
	if (!contract->sample_only)
		libcall_install();
	/* after the runtime's own start-up work, which a sample would
	 * charge to the program */
	sampler_install();
	if (contract->live != CONTRACT_LIVE_NEVER)
		control_start();
}
