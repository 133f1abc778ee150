#!/usr/bin/env bash
# Install what is missing, build everything, run the whole test suite (ctest, in parallel).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default
ctest --preset default "$@"
