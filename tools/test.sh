#!/usr/bin/env bash
# Install what is missing, build everything, run the whole test suite (ctest, in parallel).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
# In CI (CI set), warnings are errors: a newcomer's first build must be clean.
cmake --preset default ${CI:+-DSSD_WARNINGS_AS_ERRORS=ON} >/dev/null
cmake --build --preset default
ctest --preset default "$@"
