#!/bin/sh
# Functions that share a name are told apart wherever a report names
# them: each program's `work` and `main` in a recording of a program that
# execs another get their program's name ("work [first]"); two static
# functions of one name in one program their addresses, and each its own
# calls; a C++ destructor's variants their variant.
# The tag names the function for --focus, a name alone shared by several
# is refused with the names to choose from, and a name that is no
# homonym stays as it was.
. "$(dirname "$0")/lib.sh"

plan 12
cat > first.c <<'C'
#include <stdio.h>
#include <unistd.h>
__attribute__((noinline)) int work(int n) { int s = 0; for (int i = 0; i < n; i++) s += i * i; return s; }
int main(void) { printf("%d\n", work(100000)); execl("./second", "second", (char *)0); return 1; }
C
cat > second.c <<'C'
#include <stdio.h>
volatile int sink;
__attribute__((noinline)) int work(int n) { int s = 1; for (int i = 0; i < n; i++) s ^= i * 3; sink = s; return s; }
__attribute__((noinline)) int twice(int n) { return work(n) + work(n); }
int main(void) { printf("%d\n", twice(100000)); return 0; }
C
gcc -O1 -pg -o first first.c && gcc -O1 -pg -o second second.c || exit 1
limited "$CS" record -o exec.data -- ./first > /dev/null 2>&1
"$CS" report -i exec.data --json > r.json
is "$(jq -r '[.functions[] | select(.name | startswith("work")) | "\(.name) \(.calls)"] | sort | join(",")' r.json)" \
	"work [first] 1,work [second] 2" "each program's work is named by its program, with its own calls"
is "$(jq -r '[.functions[] | select(.name | startswith("main")) | .name] | sort | join(",")' r.json)" \
	"main [first],main [second]" "and so is each program's main"
is "$(jq -r '[.functions[] | select(.name == "twice" or .name == "printf") | .name] | sort | join(",")' r.json)" \
	"printf,twice" "a name only one function has is left as it is"
"$CS" graph -i exec.data > graph.txt
grep -q '^\[[0-9]*\].* work \[second\] \[[0-9]*\]$' graph.txt
ok $? "the call graph names its entries the same way"
is "$("$CS" tree -i exec.data --focus='work [second]' --json | jq -r '.tree.calls')" 2 \
	"--focus takes the name with its tag"
is "$("$CS" tree -i exec.data --focus='second:work' --json | jq -r '.tree.calls')" 2 \
	"and OBJECT:NAME as before"
"$CS" tree -i exec.data --focus=work > /dev/null 2> err.txt
rc=$?
grep -q "'work' names 2 functions ('work \[first\]', 'work \[second\]'); name one as the reports show it, e.g. --focus='work \[first\]'" err.txt
ok $(( $? || rc == 0 )) "a name shared by two is refused, naming both"
"$CS" export -i exec.data --format=folded > folded.txt
grep -q '^main \[second\];twice;work \[second\] ' folded.txt
ok $? "exports name them as the reports do"

# two static functions of one name in one program
cat > one.c <<'C'
static __attribute__((noinline)) int helper(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }
int one(int n) { return helper(n); }
C
cat > two.c <<'C'
static __attribute__((noinline)) int helper(int n) { int s = 1; for (int i = 0; i < n; i++) s *= 3; return s; }
int two(int n) { return helper(n) + helper(n + 1); }
C
cat > both.c <<'C'
int one(int), two(int);
int main(void) { return (one(1000) + two(1000)) & 1; }
C
# helpers NAME: "name calls" of the helpers in the recording of ./NAME
helpers() {
	limited "$CS" record -o "$1.data" -- "./$1" > /dev/null 2>&1
	"$CS" report -i "$1.data" --json |
		jq -r '[.functions[] | select(.name | startswith("helper")) | "\(.name) \(.calls)"] | sort | join(",")'
}
gcc -O1 -pg -o statics one.c two.c both.c || exit 1
want=$(nm statics | awk '$3 == "helper" { sub(/^0*/, "", $1); print $1 }' | sort)
set -- $want
got=$(helpers statics)
case $got in
"helper [0x$1] "[12]",helper [0x$2] "[12]) ok 0 "static homonyms in one program are named by their addresses" ;;
*) ok 1 "static homonyms in one program are named by their addresses"; echo "# got: $got (nm: $want)" >&2 ;;
esac
is "$(printf '%s\n' "$got" | tr , '\n' | awk '{ print $NF }' | sort | tr '\n' ' ')" "1 2 " \
	"and keep their own calls, not one sum"

# a C++ destructor's variants: one deleting, one complete
cat > v.cc <<'C'
#include <cstdio>
struct B { virtual ~B() { std::puts("~B"); } };
struct V : B { ~V() override; };
V::~V() { std::puts("~V"); }
int main() { B *b = new V; delete b; V v; return 0; }
C
g++ -O0 -pg -o v v.cc || exit 1
limited "$CS" record -o v.data -- ./v > /dev/null 2>&1
"$CS" report -i v.data --json > v.json
is "$(jq -r '[.functions[] | select(.name | startswith("V::~V()")) | "\(.name) \(.calls)"] | sort | join(",")' v.json)" \
	"V::~V() [complete] 2,V::~V() [deleting] 1" "a destructor's variants are named by their variant"
is "$("$CS" tree -i v.data --focus='V::~V() [deleting]' --json | jq -r '.tree.calls')" 1 \
	"and the tag picks one"
