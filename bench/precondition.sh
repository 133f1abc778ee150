#!/usr/bin/env bash
# Preconditioning speed and quality: how long each --precondition takes (functional, untimed)
# on MQSim's 512 GiB and 16 GiB geometries, whether the write amplification settled, and the
# write amplification of the 100,000 random 4 KiB writes measured right after it (timed): a
# drive in steady state runs them at the settled figure from the first write.
# Usage: bench/precondition.sh [count]   (default 100000). Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-100000}
cmake --preset default >/dev/null
cmake --build --preset default --target ssdsim >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "| platform | FTL | precondition | precondition wall s | how | settled | settled WAF | measured WAF | peak memory MiB |"
echo "|---|---|---|---:|---|---|---:|---:|---:|"
run() {  # platform ftl precondition
  local report="$out/$1-$2-${3//[:+]/_}.json"
  ./build/platforms/ssdsim run -p "platforms/$1.yaml" --ftl "$2" --synthetic random --request-bytes 4096 \
    --count "$count" --qd 16 --precondition "$3" --no-vcd --no-verify -q --report "$report"
  /usr/bin/python3 - "$report" "$1" "$2" "$3" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); p = r["preconditioning"]
how = r["workload"]["precondition"].split(" (")[0].split(",")[0]
settled = "yes" if p["steady_reached"] else ("-" if not p["chunk_waf"] else "NO")
print(f"| {sys.argv[2]} | {sys.argv[3]} | {sys.argv[4]} | {r['simulation']['precondition_wall_seconds']:.1f} | {how} | "
      f"{settled} | {p['settled_waf']:.2f} | {r['ftl_metrics']['waf']:.2f} | {r['simulation']['peak_rss_mib']:.0f} |")
PY
}
run mqsim_timing_16g page_mapping fill
run mqsim_timing_16g page_mapping fill+steady
run mqsim_timing_16g page_mapping fill+steady:run
run mqsim_timing_16g dftl fill+steady
run mqsim_timing_16g dftl fill+steady:run
run mqsim_default_512g page_mapping fill
run mqsim_default_512g page_mapping fill+steady
run mqsim_default_512g dftl fill+steady
