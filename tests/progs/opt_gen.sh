#!/bin/sh
# opt_gen.sh [COLD] — writes to stdout a C program for the link-order tests:
# COLD (default 300) functions that never run, each about 500 bytes, and
# four phases of six hot functions each, the hot ones spread among the
# cold ones in source (and so default link) order.
#
#   main(n) runs n rounds; each round calls phase_0 .. phase_3, and phase_p
#   calls hot_p_0 .. hot_p_5 (each about 150 bytes) eight times.
#
# The hot code is about 4 KiB and would fit a small cache, but in the
# default order it is spread over the whole text, so caches see conflicts
# that a link order grouping the phases removes.  Every function has
# distinct constants, so the compiler folds none of them together.
awk -v cold="${1:-300}" 'BEGIN {
	phases = 4; per = 6
	print "#include <stdio.h>"
	print "#include <stdlib.h>"
	print "volatile unsigned sink;"
	print "#define F __attribute__((noinline, noclone))"
	hot = phases * per
	step = int(cold / hot); if (step < 1) step = 1
	c = 0
	for (h = 0; h < hot; h++) {
		for (k = 0; k < step && c < cold; k++) {
			printf "F unsigned cold_%d(unsigned x)\n{\n", c
			for (s = 0; s < 40; s++)
				printf "\tx = x * %du + %du; sink = x;\n", 3 + 2 * ((c * 7 + s) % 97), c * 131 + s
			print "\treturn x;\n}"
			c++
		}
		p = int(h / per); i = h % per
		printf "F unsigned hot_%d_%d(unsigned x)\n{\n", p, i
		for (s = 0; s < 12; s++)
			printf "\tx = x * %du + %du; sink = x;\n", 5 + 2 * ((h * 11 + s) % 89), h * 977 + s
		print "\treturn x;\n}"
	}
	for (; c < cold; c++) {
		printf "F unsigned cold_%d(unsigned x)\n{\n", c
		for (s = 0; s < 40; s++)
			printf "\tx = x * %du + %du; sink = x;\n", 3 + 2 * ((c * 7 + s) % 97), c * 131 + s
		print "\treturn x;\n}"
	}
	for (p = 0; p < phases; p++) {
		printf "F unsigned phase_%d(unsigned x)\n{\n\tfor (int r = 0; r < 8; r++) {\n", p
		for (i = 0; i < per; i++)
			printf "\t\tx = hot_%d_%d(x);\n", p, i
		print "\t}\n\treturn x;\n}"
	}
	print "int main(int argc, char **argv)\n{"
	print "\tint n = argc > 1 ? atoi(argv[1]) : 100;"
	print "\tunsigned x = 1;"
	print "\tif (argc > 2)\t/* never: keeps the cold code reachable */"
	printf "\t\tx = cold_%d(x);\n", cold - 1
	print "\tfor (int i = 0; i < n; i++) {"
	for (p = 0; p < phases; p++)
		printf "\t\tx = phase_%d(x);\n", p
	print "\t}"
	print "\tprintf(\"%u\\n\", x);"
	print "\treturn 0;\n}"
}'
