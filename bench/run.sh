#!/usr/bin/env bash
# Simulation speed and memory on the scenarios of the MQSim comparison (bench/vs_mqsim.sh runs
# them side by side with MQSim): per scenario, simulated host requests per CPU-second of the
# whole process (start-up, preconditioning, simulation, the end-of-run check of the whole drive
# and the report: what a user waits for), where those seconds went, and peak memory. The host's
# read-after-write oracle checks every read in every run (it cannot be turned off), and the
# end-of-run mapping check runs too.
# Usage: bench/run.sh [count]   (default 1000000; the 128 KiB scenario runs count / 10)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000000}
cmake --preset default >/dev/null
cmake --build --preset default --target ssdsim >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# name | platform | pattern | request bytes | read fraction | queue depth | precondition | count divisor
scenarios=(
  "4 KiB random write, fresh|mqsim_default_512g|random|4096|0|16|none|1"
  "4 KiB random write, fresh|mqsim_timing_16g|random|4096|0|16|none|1"
  "4 KiB random read, filled|mqsim_default_512g|random|4096|1|16|fill|1"
  "128 KiB sequential read, filled|mqsim_default_512g|sequential|131072|1|64|fill|10"
  "4 KiB random write, steady state|mqsim_timing_16g|random|4096|0|16|fill+steady|1"
)
echo "| scenario | platform | requests | simulated IOPS | CPU s (whole process) | requests / CPU s | set-up s | precondition s | simulation s | check s | peak MiB |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for s in "${scenarios[@]}"; do
  IFS='|' read -r name platform pattern bytes reads qd pre divisor <<<"$s"
  n=$((count / divisor))
  ./build/platforms/ssdsim run -p "platforms/$platform.yaml" --synthetic "$pattern" --request-bytes "$bytes" \
    --read-fraction "$reads" --count "$n" --qd "$qd" --precondition "$pre" --no-vcd -q --report "$out/r.json"
  /usr/bin/python3 - "$out/r.json" "$name" "$platform" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); s = r["simulation"]; n = r["host"]["requests"]
print(f"| {sys.argv[2]} | {sys.argv[3]} | {n:,} | {r['host']['iops']:,.0f} | {s['process_cpu_seconds']:.2f} | "
      f"{n / s['process_cpu_seconds']:,.0f} | {s['setup_wall_seconds']:.2f} | {s['precondition_wall_seconds']:.2f} | "
      f"{s['wall_seconds']:.2f} | {s['verify_wall_seconds']:.2f} | {s['peak_rss_mib']:.0f} |")
PY
done
