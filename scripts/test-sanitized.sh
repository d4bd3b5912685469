#!/bin/sh
# The offline tools under AddressSanitizer and UndefinedBehaviorSanitizer
# (GCC's "undefined" leaves out float-cast-overflow: asked for by name).
# Any finding stops the program, so the test that reached it fails.  Runs
# the unit tests, the fuzz smoke run and the end-to-end tests of the
# readers, which take input from outside; the runtime is not built with
# sanitizers (it lives in the profiled program).  The tests that preload
# the fault-injection shim into callscope are left out: ASan must be the
# first library loaded.  Run by scripts/test.sh.
set -eu
cd "$(dirname "$0")/.."
SAN=address,undefined,float-cast-overflow
O=build/san
# leaks are not errors here: the tools exit right after their work
ASAN_OPTIONS=detect_leaks=0
export ASAN_OPTIONS
make -s O=$O SAN=$SAN WERROR=1 all shims
make -s O=$O SAN=$SAN WERROR=1 unit fuzz-smoke
CALLSCOPE_BUILD=$O prove -j2 \
	tests/t/0002-*.t tests/t/0019-*.t tests/t/0020-*.t tests/t/0040-*.t tests/t/0041-*.t tests/t/0103-*.t \
	tests/t/0205-*.t tests/t/0206-*.t tests/t/0207-*.t tests/t/0208-*.t \
	tests/t/0062-*.t tests/t/0063-*.t tests/t/0074-*.t tests/t/0401-*.t tests/t/0501-*.t tests/t/0629-*.t tests/t/0682-*.t tests/t/080[0-4]-*.t
