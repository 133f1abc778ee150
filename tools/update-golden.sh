#!/usr/bin/env bash
# Regenerates the regression golden files tests/regression/tiny_random*.json (one per FTL).
#
# ONLY run this when a change in the simulator's results is intended, and explain in the commit
# message what changed in the report and why (the diff of the golden file is part of the review).
# A golden file updated just to make a failing regression test pass hides exactly the bugs the
# test exists to catch.
#
# The file is written by the regression test itself (tests/integration/test_regression.cpp, with
# SSD_UPDATE_GOLDEN=1), so the scenario command line (platforms/tiny.yaml, random 4 KiB, 50 %
# reads, 3000 requests, seed 7, QD 8, --precondition fill+random:0.5, no waveform) and the
# filtering of the fields that vary between runs and machines (simulation.wall_seconds,
# precondition_wall_seconds, requests_per_wall_second, peak_rss_mib, vcd, platform.file;
# absolute paths replaced by <source>/<tmp>) are the same as in the comparison.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset default >/dev/null
cmake --build --preset default --target cli_tests ssdsim
before=$(mktemp -d)
trap 'rm -rf "$before"' EXIT
cp tests/regression/tiny_random*.json "$before"/ 2>/dev/null || true
SSD_UPDATE_GOLDEN=1 ./build/tests/cli_tests "regression: tiny random matches the golden report*"
# Check the new files against fresh runs, then show what changed.
./build/tests/cli_tests "regression: tiny random matches the golden report*,regression: the scenario is deterministic"
for golden in tests/regression/tiny_random*.json; do
  old="$before/$(basename "$golden")"
  if [ ! -f "$old" ]; then
    echo "update-golden: created $golden"
  elif diff -u "$old" "$golden"; then
    echo "update-golden: $golden unchanged"
  else
    echo "update-golden: $golden changed (diff above); explain the change in the commit message"
  fi
done
