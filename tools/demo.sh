#!/usr/bin/env bash
# The main job: install what is missing, build, and replay the MSR Cambridge hm_0 trace on the
# default platform (128 GiB MLC, 8 channels x 4 ways, page-mapping FTL, drive filled first): the
# bundled copy in workloads/traces/hm_0.csv, so a clone of the project alone runs it.
# Prints a summary; writes results/report.json and the waveform waves/run.vcd.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default --target ssdsim
# The waveform goes beside the GTKWave view in waves/ unless the arguments say otherwise.
vcd=(--vcd waves/run.vcd)
for a in "$@"; do [[ $a == --vcd* || $a == --no-vcd ]] && vcd=(); done
./build/platforms/ssdsim run "${vcd[@]}" "$@"
