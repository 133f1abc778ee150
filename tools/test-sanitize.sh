#!/usr/bin/env bash
# The sanitizer pass of CI: builds the whole test suite and the fuzz targets with clang,
# AddressSanitizer and UndefinedBehaviorSanitizer (the "sanitize" preset, build-sanitize/), runs
# the tests and a short fixed-seed run of every fuzz target (label "fuzz"; fuzz/run.sh).
# ASAN_OPTIONS and UBSAN_OPTIONS come from the test preset (CMakePresets.json).
# Arguments go to ctest, e.g. tools/test-sanitize.sh -L fuzz.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake --preset sanitize "${launcher[@]}" >/dev/null
cmake --build --preset sanitize
ctest --preset sanitize "$@"
