#!/bin/sh
# A traced run says how much of its time went to code without hooks, in
# which objects, whether inside library calls the trace shows or unseen,
# and where a build with hooks of such a library lies.
. "$(dirname "$0")/lib.sh"

plan 14
mkdir sys pg
cc -O2 -g -fPIC -shared -Wl,-soname,libunhooked.so.1 -o sys/libunhooked.so.1 "$PROGS/unhooked_lib.c"
cc -O2 -g -pg -fPIC -shared -Wl,-soname,libunhooked.so.1 -o pg/libunhooked.so.1 "$PROGS/unhooked_lib.c"
cp pg/libunhooked.so.1 libunhooked.so.1.0
cc -O2 -g -pg -o um "$PROGS/unhooked_main.c" sys/libunhooked.so.1 -ldl

LD_LIBRARY_PATH=sys limited "$CS" record --outside-freq=997 -o u.data -- ./um 60000000 >/dev/null 2>&1
"$CS" report -i u.data --json > u.json
samples=$(jq .unhooked.samples u.json)
ok $(( samples < 20 )) "samples were taken beside the trace ($samples)"
seen=$(jq .unhooked.in_library_calls u.json)
unseen=$(jq .unhooked.unseen u.json)
ok $(( seen * 4 < samples || unseen * 4 < samples )) \
	"about half inside the traced library call ($seen), half unseen ($unseen)"
is "$(jq -r '.unhooked.objects[0] | "\(.object) \(.hooked_build)"' u.json)" \
	"$PWD/sys/libunhooked.so.1 $PWD/libunhooked.so.1.0" "the object, and the build with hooks beside the program"
is "$(jq '[.functions[] | select(.name == "lib_by_pointer")] | length' u.json)" 0 \
	"the call through a pointer is not traced"
"$CS" report -i u.data > u.txt
grep -q "^# time in code without hooks: [0-9.]* %" u.txt
ok $? "the report's header gives the share"
grep -q "LD_LIBRARY_PATH=$PWD after 'ln -s libunhooked.so.1.0 $PWD/libunhooked.so.1'" u.txt
ok $? "and names the fix"
"$CS" info -i u.data | grep -q "^unhooked: .*time in code without hooks"
ok $? "info says it too"

LD_LIBRARY_PATH=pg limited "$CS" record --outside-freq=997 -o h.data -- ./um 30000000 >/dev/null 2>&1
"$CS" report -i h.data --json > h.json
is "$(jq '[.functions[] | select(.name == "lib_by_pointer") | .calls] | add' h.json)" 8 \
	"with the -pg build loaded, its functions are traced (one call a round)"
ok $(jq '.unhooked | if .hooked * 4 >= .samples * 3 then 0 else 1 end' h.json) \
	"and their time counts as hooked"

LD_LIBRARY_PATH=sys limited "$CS" record --outside-freq=0 -o off.data -- ./um 1000 >/dev/null 2>&1
is "$("$CS" report -i off.data --json | jq 'has("unhooked")')" "false" "--outside-freq=0 samples nothing"

# In a call-heavy program the hooks' own cost is a large share of the run:
# samples in the runtime are that cost (taken off as overhead), never time
# in code without hooks.
cat > fib.c <<'C'
__attribute__((noinline)) static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int main(void) { return fib(34) == 5702887 ? 0 : 1; }
C
cc -O2 -g -pg -o fib fib.c
limited "$CS" record --no-libcall --outside-freq=997 -o f.data -- ./fib >/dev/null 2>&1
"$CS" report -i f.data --json > f.json
ok $(jq '.unhooked | if .samples >= 20 then 0 else 1 end' f.json) \
	"a call-heavy run was sampled beside its trace ($(jq .unhooked.samples f.json))"
ok $(jq '.unhooked | if .unseen * 5 < .samples then 0 else 1 end' f.json) \
	"the hooks' time is not time in code without hooks ($(jq -c .unhooked f.json))"

# A program built without hooks whose entries record --patch patched: its
# own code is hooked code, with no advice to rebuild it.
cat > busy.c <<'C'
__attribute__((noinline)) static unsigned long busy(unsigned long n)
{
	unsigned long x = 1;
	for (unsigned long i = 0; i < n; i++)
		x = x * 6364136223846793005u + i;
	return x;
}
int main(void) { return busy(200000000) == 0; }
C
cc -O2 -g -o busy busy.c
limited "$CS" record --patch --no-libcall --outside-freq=997 -o p.data -- ./busy >/dev/null 2>&1
"$CS" report -i p.data --json > p.json
ok $(jq '.unhooked | if .samples >= 20 and .hooked * 4 >= .samples * 3 then 0 else 1 end' p.json) \
	"a patched program's own time is hooked time ($(jq -c .unhooked p.json))"
! "$CS" info -i p.data | grep -q "has no hooks"
ok $? "and info does not tell to rebuild it with -pg"
done_testing
