#!/usr/bin/env bash
# ssdsim side by side with MQSim (https://github.com/CMU-SAFARI/MQSim) on the same drives and
# workloads: simulation cost (requests per CPU-second and peak memory of the whole process,
# medians over --runs runs, the two simulators run alternately) and the simulated results (IOPS,
# mean latency; ssdsim's p99; write amplification for writes).
#
# Usage: bench/vs_mqsim.sh MQSIM_DIR [--runs N] [--quick] [--scenarios a,b,...] [--timeout S] [--keep DIR]
#                          [--mqsim-dies-as-chips]
#   MQSIM_DIR    MQSim's build directory, holding the MQSim executable (build it with its Makefile;
#                MQSim is not part of this project and nothing of it is kept here)
#   --runs N     runs of each simulator per scenario (default 3)
#   --quick      request counts / 100, to check the script in about a minute; MQSim's
#                preconditioning is skipped in the read scenarios c and d (on the 512 GiB drive it
#                takes 17 minutes (c) and 2.5 minutes (d) and 9-10 GB; MQSim reads flash for
#                never-written pages too)
#   --scenarios  subset of a,b,c,d,e,f (default all)
#   --timeout S  per-run limit in seconds (default 1800); a run over it is reported as
#                "did not finish in S s" and that simulator is not run again for the scenario
#   --keep DIR   keep every run's inputs (MQSim's ssdconfig.xml and workload.xml) and outputs
#   --mqsim-dies-as-chips  give MQSim ways x dies chips of one die each: MQSim issues one command
#                per chip at a time, so the dies of one chip never work in parallel there
#
# A full run (all scenarios, 3 runs) takes about 70 minutes, most of it MQSim preconditioning the
# 512 GiB drive for c. Scenarios (ssdsim: `ssdsim run -p platforms/P.yaml --synthetic ... --no-vcd -q --report R`):
#   a  fresh drive, 4 KiB random writes, QD16, 1,000,000 requests, mqsim_default_512g
#   b  the same on mqsim_timing_16g
#   c  4 KiB random reads, QD16, 1,000,000 requests, filled 512 GiB drive
#      (ssdsim --precondition fill; MQSim preconditioning at 100% occupancy)
#   d  128 KiB sequential reads, QD64, 100,000 requests, filled 512 GiB drive (same)
#   e  steady-state 4 KiB random writes, QD16, 1,000,000 requests, 16 GiB drive
#      (ssdsim --precondition fill+steady; MQSim's steady-state preconditioning at 100% occupancy)
#   f  two flows sharing the filled 16 GiB drive, each on an NVMe queue of its own and on its own half of
#      the logical space, closed loop: flow 0 4 KiB random, 70% reads, QD4, 40,000 requests; flow 1
#      64 KiB random, 10% reads, QD16, 8,000 requests. Per flow its mean latency with the other and
#      alone, its slowdown (shared / alone) and the fairness (min / max slowdown), as in MQSim's FAST'18
#      paper (ssdsim: `ssdsim run -p platforms/mqsim_timing_16g.yaml --jobs JOBS --alone-runs
#      --precondition fill`; MQSim: both flows in one IO_Scenario, then each alone, preconditioning at
#      100% occupancy; where MQSim's GC fails with two flows, and it does at these counts, MQSim runs
#      again without preconditioning: the notes under the table say which)
#
# ssdsim is $SSDSIM or build/platforms/ssdsim; its data folder $SSDSIM_DATA_DIR or this checkout.
# MQSim's configuration is written from the platform's effective parameters (`ssdsim validate`):
# geometry, tR/tPROG/tBERS, channel width and rate, over-provisioning, GC threshold, the write
# buffer (on: MQSim's WRITE_CACHE of the same size; off: TURNED_OFF), DRAM bandwidth, PCIe lanes.
# The settings MQSim needs that the platform does not name, and how MQSim's IOPS is taken from
# its response-time log, are described in bench/mqsim_side_by_side.py.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [[ $# -lt 1 || $1 == -h || $1 == --help ]]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
  [[ $# -lt 1 ]] && exit 2 || exit 0
fi
mqsim_dir=$1
shift
if [[ ! -d $mqsim_dir ]]; then
  echo "vs_mqsim.sh: $mqsim_dir is not a directory (give MQSim's build directory, holding the MQSim executable)" >&2
  exit 2
fi
if [[ ! -x $mqsim_dir/MQSim ]]; then
  echo "vs_mqsim.sh: no MQSim executable in $mqsim_dir (expected $mqsim_dir/MQSim; run make in a copy of MQSim's source and give that folder)" >&2
  exit 2
fi
export SSDSIM=${SSDSIM:-$here/../build/platforms/ssdsim}
if [[ ! -x $SSDSIM ]]; then
  echo "vs_mqsim.sh: no ssdsim at $SSDSIM (build it: cmake --preset default && cmake --build --preset default, or set SSDSIM)" >&2
  exit 2
fi
exec /usr/bin/python3 "$here/mqsim_side_by_side.py" "$mqsim_dir" "$@"
