#!/usr/bin/env bash
# Install what is missing, build everything (the simulator, its tests, and the firmware cross-built
# for the Cortex-R5F), run the whole test suite (ctest, in parallel).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
# In CI (CI set; .ci/run sets it), warnings are errors: a newcomer's first build must be clean.
# CI also keeps line tables only (-g1): full debug info costs a third of the build's compile time
# and nothing in the suite reads it. And CI builds by unity (the sanitize preset does too): a
# fresh build took 1,784 CPU s file by file, 978 s in unity batches (2026-12-07, 2 cores); an
# incremental build outside CI stays file by file.
ci=()
[ -n "${CI:-}" ] && ci=(-DSSD_WARNINGS_AS_ERRORS=ON "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"
                        -DCMAKE_UNITY_BUILD=ON)
cmake --preset default "${ci[@]}" >/dev/null
# The default build cross-builds the firmware image for the controller's Cortex-R5F too
# (build/firmware-r5, warnings as errors in CI): a change that breaks the target build fails here.
cmake --build --preset default
ctest --preset default "$@"
