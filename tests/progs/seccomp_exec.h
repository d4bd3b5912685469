/*
 * The end both seccomp wrappers share (deny_code_writes.c,
 * deny_perf_events.c): install FILTER, whose first rules let every
 * architecture but x86_64 through, then run the command in ARGV[1...].
 */
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

/* The first rules of every filter: other architectures pass. */
#define SECCOMP_X86_64_ONLY \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)), \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0), \
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW), \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr))

/* Returns only on failure, with the exit status to end with. */
static int seccomp_exec(const char *name, struct sock_filter *filter, unsigned short len,
			int argc, char **argv)
{
	struct sock_fprog prog = { len, filter };

	if (argc < 2) {
		fprintf(stderr, "usage: %s COMMAND ARGS...\n", name);
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
		fprintf(stderr, "%s: ", name);
		perror("seccomp");
		return 2;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "%s: ", name);
	perror("exec");
	return 127;
}
