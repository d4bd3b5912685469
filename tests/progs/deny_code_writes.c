/*
 * Runs a command where making memory writable with mprotect fails with
 * EACCES, as SELinux refuses a program without execmod that tries to
 * write its code: a seccomp filter answers mprotect(..., PROT_READ |
 * PROT_WRITE) with that error, and lets everything else through.
 *
 *     deny_code_writes COMMAND ARGS...
 */
#include <errno.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "seccomp_exec.h"

int main(int argc, char **argv)
{
	struct sock_filter filter[] = {
		SECCOMP_X86_64_ONLY,
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mprotect, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[2])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PROT_READ | PROT_WRITE, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	return seccomp_exec("deny_code_writes", filter, sizeof(filter) / sizeof(filter[0]),
			    argc, argv);
}
