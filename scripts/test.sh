#!/bin/sh
# Builds everything with warnings as errors and runs every test: unit
# tests (cmocka), the fuzz smoke run, and the end-to-end TAP tests; then
# the same under the sanitizers for the parts that read outside input.
# This is the command the README gives and CI runs.
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
make -s WERROR=1 all
make -s WERROR=1 check
sh scripts/test-sanitized.sh
