#!/bin/sh
# common/banned.h, which the Makefile hands to every compile of ours: a
# new call of a banned function fails the build, and the safe forms and
# the headers that declare the banned ones still compile.
. "$(dirname "$0")/lib.sh"

plan 4

# the compiler's dependency lists name what each object read
missing=""
for d in "$BUILD/tool/cli/main.d" "$BUILD/tool/formats/native_read.d" "$BUILD/rt/runtime/trace.d"; do
	grep -q 'common/banned\.h' "$d" 2>/dev/null || missing="$missing $d"
done
is "$missing" "" "the tools and the runtime are compiled with common/banned.h"

cat > safe.c <<'EOC'
#include <stdio.h>
#include <string.h>
#include <time.h>
int f(char *d, size_t n, const char *s);
int f(char *d, size_t n, const char *s)
{
	char *save;
	struct tm tm;
	time_t t = 0;
	gmtime_r(&t, &tm);
	(void)strtok_r(d, ",", &save);
	return snprintf(d, n, "%s", s);
}
EOC
(cd "$ROOT" && cc -std=gnu11 -Wall -Werror -I common -include common/banned.h -c "$WORK/safe.c" -o "$WORK/safe.o")
ok $? "the safe forms compile beside the poisoned names"

for fn in strcpy sprintf; do
	if [ $fn = strcpy ]; then call='strcpy(d, s)'; else call='sprintf(d, "%s", s)'; fi
	printf '#include <stdio.h>\n#include <string.h>\nvoid f(char *d, const char *s);\nvoid f(char *d, const char *s) { %s; }\n' \
		"$call" > bad.c
	(cd "$ROOT" && cc -std=gnu11 -I common -include common/banned.h -c "$WORK/bad.c" -o "$WORK/bad.o") \
		2> bad.err
	rc=$?
	[ $rc -ne 0 ] && grep -q "poisoned \"$fn\"" bad.err
	ok $? "a call of $fn fails the build"
done

done_testing
