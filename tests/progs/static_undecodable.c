/*
 * static_undecodable: rare() calls never_called() on a path that never
 * runs, right after two instructions a disassembler may not read: one
 * newer than it (AVX-VNNI's vpdpbusd, VEX-encoded, which capstone 4 does
 * not know) and a byte no x86-64 decoder reads (0x06, push %es outside
 * 64-bit mode).  Neither ever runs.
 */
__attribute__((noinline)) int never_called(int x)
{
	return x * 7;
}

__attribute__((noinline)) int rare(int x)
{
	if (x == 123456) {
		__asm__ volatile(".byte 0xc4, 0xe2, 0x71, 0x50, 0xc2\n\t"	/* vpdpbusd */
				 ".byte 0x06" ::: "xmm0");
		return never_called(x) + 1;
	}
	return x + 1;
}

int main(int argc, char **argv)
{
	(void)argv;
	return rare(argc) == 2 ? 0 : 1;
}
