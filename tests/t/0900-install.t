#!/bin/sh
# make install / uninstall: an installed callscope (PREFIX) records and
# reports exactly as the one in the build folder, finds its runtime and
# idle hooks where it was installed, and a program using callscope.h
# builds with pkg-config's flags; a DESTDIR staging holds the whole layout
# and uninstall takes all of it away again.
. "$(dirname "$0")/lib.sh"

command -v pandoc > /dev/null || { echo "1..0 # SKIP pandoc is needed for the manual pages"; exit 0; }
plan 10

# make in the tree under test, never remaking the binaries the other tests
# are running at the same time (-o: take them as they are)
make_tree() {
	make -s -C "$ROOT" -o build/callscope -o build/libcallscope.so \
		-o build/libcallscope-idle-hooks.so "$@"
}

prefix="$WORK/prefix"
make_tree install PREFIX="$prefix" > make.out 2>&1
ok $? "make install PREFIX=... succeeds"
[ -x "$prefix/bin/callscope" ] && [ -r "$prefix/lib/callscope/libcallscope.so" ] &&
	[ -r "$prefix/lib/callscope/libcallscope-idle-hooks.so" ] &&
	[ -r "$prefix/include/callscope.h" ] && [ -r "$prefix/share/pkgconfig/callscope.pc" ] &&
	[ -r "$prefix/share/man/man1/callscope.1" ] && [ -r "$prefix/share/man/man1/callscope-record.1" ] &&
	[ -r "$prefix/share/doc/callscope/README.md" ] && [ -r "$prefix/share/doc/callscope/examples/wordfreq.c" ] &&
	[ -r "$prefix/share/bash-completion/completions/callscope" ]
ok $? "the CLI in bin/, runtime and idle hooks in lib/callscope/, header, .pc, manual, docs, completion"

cat > app.c <<'PROG'
#include <callscope.h>
#include <stdio.h>
__attribute__((noinline)) static unsigned step(unsigned x) { return x * 2654435761u + 1; }
__attribute__((noinline)) static unsigned work(int n)
{
	unsigned h = 0;
	for (int i = 0; i < n; i++)
		h = step(h);
	return h;
}
int main(void)
{
	callscope_mark(1);
	printf("start %d\n", callscope_start());
	callscope_mark(2);
	printf("%u\n", work(1000) + work(234));
	return 0;
}
PROG
cflags=$(PKG_CONFIG_PATH="$prefix/share/pkgconfig" pkg-config --cflags --libs callscope) &&
	cc -pg -O1 $cflags -o app app.c
ok $? "pkg-config --cflags --libs callscope builds a program calling callscope_start and callscope_mark"

# The installed CLI must not lean on the build folder: with no
# CALLSCOPE_LIB it takes the runtime from ../lib/callscope/ beside its bin/.
unset CALLSCOPE_LIB
limited "$prefix/bin/callscope" record -o inst.data -- ./app > inst.out 2> inst.err &&
	grep -q "$prefix/lib/callscope/libcallscope.so" inst.data &&
	! grep -q "$ROOT/build/libcallscope.so" inst.data
ok $? "the installed callscope records, with the installed runtime"
limited "$CS" record -o build.data -- ./app > build.out 2> /dev/null
summary() {
	"$1" report -i "$2" --json | jq -c '[.functions[] | [.name, .calls]] | sort'
	"$1" replay -i "$2" --json | jq -c '[.threads[].events[] | select(.kind == "mark") | .value]'
}
is "$(summary "$prefix/bin/callscope" inst.data)" "$(summary "$CS" build.data)" \
	"installed and build-folder callscope report the same calls and marks"
is "$(calls_of inst.data step)" "1234" "... the exact call count"
is "$(head -1 inst.out)" "start -3" "callscope_start reached the installed runtime (capture was already on)"

limited "$prefix/bin/callscope" record --mode=sample -o sample.data -- ./app \
	> /dev/null 2> sample.err
ok $? "--mode=sample finds the installed idle hooks beside the runtime"

stage="$WORK/stage"
make_tree install DESTDIR="$stage" PREFIX=/usr > /dev/null 2>&1 &&
	[ -x "$stage/usr/bin/callscope" ] && [ -r "$stage/usr/lib/callscope/libcallscope.so" ] &&
	grep -qx 'prefix=/usr' "$stage/usr/share/pkgconfig/callscope.pc"
ok $? "DESTDIR stages the /usr layout, the .pc naming /usr"
make_tree uninstall DESTDIR="$stage" PREFIX=/usr > /dev/null 2>&1
is "$(find "$stage" -type f | sed "s|^$stage||")" "" "make uninstall removes every file install wrote"
done_testing
