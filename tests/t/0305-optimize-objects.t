#!/bin/sh
# Groups learned from the object files when static functions of two files
# share a name: a.c and b.c each define a static helper().  The objects
# name both, so a name alone cannot say which of the binary's two helpers
# a section holds; its offset beside a function whose name is unique, or
# its size, can.  Built with -ffunction-sections and with a.c without it
# (then helper and a_work share a.o's .text: one fixed group), --objects
# must find what --map finds, and the GNU ld script must name each section.
. "$(dirname "$0")/lib.sh"

plan 12

cat >a.c <<'EOF'
__attribute__((noinline)) static unsigned helper(unsigned x) { return x * 3 + 1; }
__attribute__((noinline)) unsigned a_work(unsigned x) { return helper(x) ^ 5; }
EOF
cat >b.c <<'EOF'
__attribute__((noinline)) static unsigned helper(unsigned x) { return (x >> 1) + 7; }
__attribute__((noinline)) unsigned b_work(unsigned x) { return helper(x) + 9; }
EOF
cat >m.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>
unsigned a_work(unsigned), b_work(unsigned);
int main(int argc, char **argv)
{
	unsigned x = 1;
	int n = argc > 1 ? atoi(argv[1]) : 100;
	for (int i = 0; i < n; i++) {
		x = a_work(x);
		if (i % 3 == 0)
			x = b_work(x);
	}
	printf("%u\n", x);
	return 0;
}
EOF
cc -O2 -g -ffunction-sections -c a.c b.c m.c
cc -O2 -g -c a.c -o a-plain.o
cc -o split m.o a.o b.o -Wl,-Map=split.map
cc -o fixed m.o a-plain.o b.o -Wl,-Map=fixed.map
cc -O2 -g -pg -o prog-pg m.c a.c b.c
limited "$CS" record -o p.data -- ./prog-pg 300 >/dev/null 2>&1
ok $? "recorded"

# The script's body: the input section lines, without the header comment.
body() { grep '^    [^/]' "$1"; }

# One section per function: a.o's helper has its own section.
"$CS" optimize -i p.data --binary split --map split.map -o sm >/dev/null 2>&1 &&
	"$CS" optimize -i p.data --binary split --objects m.o a.o b.o -o so >/dev/null 2>&1
ok $? "optimize with --map and with --objects"
grep -q '^    a\.\[o\](\.text\.helper)$' so.ld
ok $? "the ld script names the hot helper's section with its file"
is "$(body so.ld)" "$(body sm.ld)" "the objects give the script the map gives"
cmp -s so.order sm.order
ok $? "and the same order"

# a.c without -ffunction-sections: helper and a_work are one fixed group.
"$CS" optimize -i p.data --binary fixed --map fixed.map -o fm >/dev/null 2>&1 &&
	"$CS" optimize -i p.data --binary fixed --objects m.o a-plain.o b.o -o fo >/dev/null 2>&1
ok $? "optimize the build with a fixed group"
sed -n '/^fixed groups/,$p' fo.lor | grep -A1 '^   \.text (a-plain\.o): .* 2 functions' | grep -q 'helper  a_work'
ok $? "the objects give the fixed group of helper and a_work"
grep -q '^    a-plain\.\[o\](\.text)$' fo.ld && ! grep -q '^    \*(\.text)$' fo.ld
ok $? "the ld script names that .text by its file, not every file's .text"
is "$(body fo.ld)" "$(body fm.ld)" "the objects give the script the map gives"
cmp -s fo.order fm.order
ok $? "and the same order"

cc -o fixed-bfd m.o a-plain.o b.o -Wl,-T,fo.ld
ok $? "GNU ld links with the script"
is "$(./fixed-bfd 300)" "$(./fixed 300)" "the relinked program computes the same"
done_testing
