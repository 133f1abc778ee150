#!/usr/bin/env bash
# Simulation speed and memory: 1,000,000 4 KiB random writes at QD16, on a fresh drive and on a
# filled one (sequential fill, then 10% of the capacity in random page writes so GC is active),
# on MQSim's default 512 GiB geometry and on the 16 GiB one. Prints a Markdown table of
# simulated host requests per wall-second (timed simulation only) and peak memory (whole
# process, preconditioning included). The host's read-after-write oracle checks every read in
# every run (it cannot be turned off); each configuration runs twice, with the end-of-run walk of
# the whole drive (mapping against every page's OOB) and without it (--no-verify).
# Usage: bench/run.sh [count]   (default 1000000)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000000}
cmake --preset default >/dev/null
cmake --build --preset default --target ssdsim >/dev/null
out=$(mktemp -d)
echo "| platform | drive | end-of-run check | requests | wall s (sim) | requests / wall s | precondition wall s | peak memory MiB | WAF |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|"
for platform in mqsim_timing_16g mqsim_default_512g; do
  for state in fresh filled; do
   for check in verify no-verify; do
    pre=none
    [[ $state == filled ]] && pre=fill+random:0.1
    flags=()
    [[ $check == no-verify ]] && flags=(--no-verify)
    ./build/platforms/ssdsim run -p platforms/$platform.yaml --synthetic random --request-bytes 4096 \
      --count "$count" --qd 16 --precondition "$pre" --no-vcd "${flags[@]}" -q --report "$out/$platform-$state.json"
    python3 - "$out/$platform-$state.json" "$platform" "$state" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); s = r["simulation"]
check = "on" if r["integrity"]["mapping_check"] != "skipped" else "off"
print(f"| {sys.argv[2]} | {sys.argv[3]} | {check} | {r['host']['requests']} | {s['wall_seconds']:.1f} | "
      f"{s['requests_per_wall_second']:,.0f} | {s['precondition_wall_seconds']:.1f} | {s['peak_rss_mib']:.0f} | "
      f"{r['ftl_metrics']['waf']:.2f} |")
PY
   done
  done
done
