#!/usr/bin/env bash
# Install what is missing, build everything (the simulator, its tests, and the firmware cross-built
# for the Cortex-R5F), run the whole test suite (ctest, in parallel).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
# In CI (CI set), warnings are errors: a newcomer's first build must be clean.
cmake --preset default ${CI:+-DSSD_WARNINGS_AS_ERRORS=ON} >/dev/null
cmake --build --preset default
# The firmware cross-built for the controller's Cortex-R5F: a change that breaks the target build
# fails here.
cmake --preset firmware-r5 ${CI:+-DSSD_WARNINGS_AS_ERRORS=ON} >/dev/null
cmake --build --preset firmware-r5
ctest --preset default "$@"
