#!/bin/sh
# Builds callscope and shows it on the bundled example: installs what is
# missing, builds, compiles examples/wordfreq.c with -pg, records a run,
# and prints the flat profile, the call graph and what was recorded.
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
make -s
mkdir -p build/demo
# -fno-inline keeps the small functions visible as functions of their own
cc -pg -O2 -fno-inline -g -o build/demo/wordfreq examples/wordfreq.c
build/callscope record -o build/demo/callscope.data -- build/demo/wordfreq 200000
echo
build/callscope report -i build/demo/callscope.data
echo
build/callscope graph --brief -i build/demo/callscope.data
echo
build/callscope info -i build/demo/callscope.data
