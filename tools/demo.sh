#!/usr/bin/env bash
# The main job: install what is missing, build, and replay the MSR Cambridge hm_0 trace on the
# default platform (128 GiB MLC, 8 channels x 4 ways, page-mapping FTL, drive filled first).
# Prints a summary; writes results/report.json and the waveform waves/run.vcd.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default --target ssdsim
./build/platforms/ssdsim run "$@"
