#!/usr/bin/env bash
# The sanitizer pass of CI: builds the whole test suite and the fuzz targets with clang,
# AddressSanitizer and UndefinedBehaviorSanitizer (the "sanitize" preset, build-sanitize/), runs
# the tests and a short fixed-seed run of every fuzz target (label "fuzz"; fuzz/run.sh).
# ASAN_OPTIONS and UBSAN_OPTIONS come from the test preset (CMakePresets.json):
# detect_stack_use_after_return=0 because SystemC's module-name stack breaks on ASan's fake
# stacks (with it on, sc_tests warn W509 "module construction not properly completed" and nest
# modules under the wrong parent); leaks, init order and string checks stay on.
# Test selection: the whole suite. On this 2-core machine the tests took 5.6 min under the
# sanitizers (the slowest, the hybrid FTLs' timed integrity, 113 s) and the fuzz smoke runs
# about 20 s per target, 2 at a time; see bench/README.md ("Fuzzing") for the build time.
# Arguments go to ctest, e.g. tools/test-sanitize.sh -L fuzz (only the fuzz smoke runs).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake --preset sanitize "${launcher[@]}" >/dev/null
cmake --build --preset sanitize
ctest --preset sanitize "$@"
