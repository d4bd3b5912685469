#!/bin/sh
# A library the loader found through a relative name (LD_LIBRARY_PATH=.,
# dlopen("./plugin.so"), as test suites run their own builds) is recorded
# by its absolute path, so the recording reads the same from any
# directory: its functions keep their names, and no warning is given.
. "$(dirname "$0")/lib.sh"

plan 6
cc -g -O2 -pg -fPIC -shared -DEXPORT_LIB -o libexport.so "$PROGS/export_lib.c"
cc -g -O2 -pg -o app "$PROGS/export_lib.c" -L. -lexport
mkdir elsewhere
for mode in trace count; do
	LD_LIBRARY_PATH=. limited "$CS" record --mode=$mode -o rel.data -- ./app > /dev/null 2>&1
	is "$?" 0 "$mode: the program runs with its library found through LD_LIBRARY_PATH=."
	(cd elsewhere && "$CS" report -i ../rel.data > report.txt 2> report.err)
	is "$(cat elsewhere/report.err)" "" "$mode: read from another directory, no warning"
	is "$(cd elsewhere && calls_of ../rel.data lib_work)" 5 \
		"$mode: the library's function keeps its name and its 5 calls"
done
done_testing
