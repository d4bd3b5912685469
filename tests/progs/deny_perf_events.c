/*
 * Runs a command where perf_event_open fails with EACCES, as a
 * container's seccomp filter refuses it: the runtime then sees no context
 * switches of its threads and samples by the timer.
 *
 *     deny_perf_events COMMAND ARGS...
 */
#include <errno.h>
#include <sys/syscall.h>

#include "seccomp_exec.h"

int main(int argc, char **argv)
{
	struct sock_filter filter[] = {
		SECCOMP_X86_64_ONLY,
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_perf_event_open, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	return seccomp_exec("deny_perf_events", filter, sizeof(filter) / sizeof(filter[0]),
			    argc, argv);
}
