#!/bin/sh
# record --patch of a library the loader finds by a link (its soname,
# libspin.so.1 -> libspin.so.1.0): the recording names it by the link, as
# the loader does, the plan by the file the link leads to.  Both are the
# patched library: its time is code with hooks, its calls the program's
# calls, not library calls through the PLT with their dearer hooks.
# Taken apart, the report would advise rebuilding the library with -pg,
# and its functions' self times could exceed their totals (Debian's
# libbz2: found as /lib/x86_64-linux-gnu/libbz2.so.1.0, planned as
# /usr/lib/x86_64-linux-gnu/libbz2.so.1.0.4).
. "$(dirname "$0")/lib.sh"

plan 4
cc -O2 -fPIC -shared -Wl,-soname,libspin.so.1 -o libspin.so.1.0 "$PROGS/patch_lib_link_lib.c"
ln -s libspin.so.1.0 libspin.so.1
cc -O2 -o linked "$PROGS/patch_lib_link.c" libspin.so.1.0
LD_LIBRARY_PATH=$WORK limited "$CS" record -q --patch='*,libspin' -o l.data -- ./linked \
	> /dev/null 2> l.err
ok $? "records the program and its library, patched"
"$CS" report -i l.data --json > l.json
is "$(jq '[.functions[] | select(.name == "spin") | .calls] | add' l.json)" 1 "spin's call"
samples=$(jq '.unhooked.samples' l.json)
hooked=$(jq '.unhooked.hooked' l.json)
ok $(( hooked * 10 < samples * 9 )) \
	"$hooked of $samples samples beside the trace in code with hooks, 90 % or more"
"$CS" report -i l.data > l.txt
ok "$(grep -q 'has no hooks' l.txt; [ $? -ne 0 ]; echo $?)" "no advice to rebuild it with -pg"
done_testing
