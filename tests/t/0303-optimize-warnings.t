#!/bin/sh
# The warnings a real link can cause, each naming the functions with their
# calls: hot functions in a shared library (no link order of the program
# can move them) and hot functions whose symbols carry no size (assembly
# without .size: placed, but not counted against the cache).
# Library calls are left out: the warnings name the instrumented library's functions.
. "$(dirname "$0")/lib.sh"

plan 10

# The library half built as a shared library: its functions are recorded
# but belong to another file than the program.
cc -O2 -g -pg -fPIC -shared -o libopt.so "$PROGS/opt_lib.c"
cc -O2 -g -pg -ffunction-sections -o prog-so "$PROGS/opt_main.c" -L. -lopt -Wl,-rpath,"$WORK"
limited "$CS" record --no-libcall -o so.data -- ./prog-so 100 >/dev/null 2>&1
ok $? "the program with a shared library is recorded"
"$CS" optimize -i so.data -o so >so.out 2>so.err
ok $? "optimize succeeds"
grep -q "3 functions are in shared libraries .*lib_hot (100 calls)" so.err
ok $? "the terminal names the library's hottest function with its calls"
sed -n '/^  in a shared library: 3 /,/^  [a-z]/p' so.lor | grep -q '^    lib_hot .* 100 calls  .*libopt\.so$'
ok $? "the .lor lists it with its calls and its library"
! grep -q '^lib_' so.order && grep -qx checked so.order
ok $? "the order holds the program's functions and none of the library's"

# The library's functions assembled without .size: the release binary
# knows where they start but not how long they are.
cc -O2 -S -o lib.s "$PROGS/opt_lib.c"
sed '/^[[:space:]]*\.size[[:space:]]/d' lib.s >lib-nosize.s
cc -c lib-nosize.s -o lib-nosize.o
cc -O2 -g -ffunction-sections -c "$PROGS/opt_main.c" -o opt_main.o
cc -o prog-nosize opt_main.o lib-nosize.o
cc -O2 -g -pg -ffunction-sections -o prog-pg "$PROGS/opt_main.c" "$PROGS/opt_lib.c"
limited "$CS" record --no-libcall -o p.data -- ./prog-pg 100 >/dev/null 2>&1
ok $? "the instrumented build is recorded"
"$CS" optimize -i p.data --binary prog-nosize -o ns >ns.out 2>ns.err
ok $? "optimize succeeds on a binary with size-less symbols"
grep -q "3 hot functions have no size .*lib_hot (100 calls)" ns.err
ok $? "the terminal names the size-less hot function with its calls"
sed -n '/^  no size information: 3 /,/^  [a-z]/p' ns.lor | grep -q '^    lib_hot .* 0 bytes .* 100 calls'
ok $? "the .lor lists it with its calls"
grep -qx lib_hot ns.order
ok $? "and it is still placed in the order"
done_testing
