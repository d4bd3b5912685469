#!/bin/sh
# A program compiled in a build directory from a source named relative to
# it (cc ../src/f.c, as out-of-tree builds name them): DWARF holds the
# relative name and the compilation directory.  annotate shows the source
# text from any directory, as gdb and addr2line find it there, and the
# line lists name the file from that directory.
. "$(dirname "$0")/lib.sh"

plan 3
mkdir -p src build far/away
cp "$PROGS/sample_hot.c" src/sample_hot.c
(cd build && cc -g -O2 -o hot ../src/sample_hot.c) || { echo "Bail out! cannot build"; exit 1; }
(cd build && limited "$CS" record -o s.data -- ./hot flat > /dev/null 2>&1)
cd far/away
limited "$CS" annotate -i ../../build/s.data hot > a.txt 2> err.txt
grep -q "^ *[0-9]* *[0-9.]*  sample_hot.c:[0-9]*  .*x += (double)i \* 0.5;" a.txt
ok $? "annotate shows the source text from another directory: $(cat err.txt)"
"$CS" report -i ../../build/s.data --lines > l.txt 2> err.txt
file=$(awk '/sample_hot\.c:/ { print $3; exit }' l.txt | sed 's/:.*//')
is "$file" "$(cd ../../build && pwd -P)/../src/sample_hot.c" "report --lines names the file from the compilation directory"
[ -f "$file" ]
ok $? "and that name opens from here"
done_testing
