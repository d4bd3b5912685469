#!/bin/sh
# optimize --binary a shared library the program loaded: its functions are
# the ones laid out (not "in shared libraries"), whether --binary is the
# very file recorded or another build of it with the same name.
. "$(dirname "$0")/lib.sh"

plan 4
mkdir lib other
cc -g -O2 -pg -fPIC -shared -ffunction-sections -o lib/libopt.so "$PROGS/opt_lib.c"
cc -g -O2 -fPIC -shared -ffunction-sections -o other/libopt.so "$PROGS/opt_lib.c"
cc -g -O2 -pg -o prog "$PROGS/opt_main.c" -Llib -lopt -Wl,-rpath,"$WORK/lib"
limited "$CS" record -o p.data -- ./prog > /dev/null 2>&1
limited "$CS" optimize -i p.data --binary=lib/libopt.so -o same > out.txt 2> err.txt
grep -q '^lib_hot$' same.order && grep -q '^lib_warm$' same.order
ok $? "the recorded library: its called functions are in the order"
grep -q 'in shared libraries.*lib_hot' err.txt
ok $(( $? == 0 )) "and are not called shared functions that cannot move"
limited "$CS" optimize -i p.data --binary=other/libopt.so -o build > /dev/null 2>&1
grep -q '^lib_hot$' build.order
ok $? "another build of the library, by its file name: the same functions ordered"
grep -q '^main$' same.order
ok $(( $? == 0 )) "the program's own functions are not in the library's order"
