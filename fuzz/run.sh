#!/usr/bin/env bash
# Runs one fuzz target: first replays every kept regression input (fuzz/regressions/<name>/),
# then fuzzes from a seed corpus gathered now (the project's own small traces, platform and
# job files are globbed at run time, so traces added under workloads/traces/ are picked up).
#   fuzz/run.sh BINARY NAME WORKDIR [libFuzzer options...]
# The options given override the defaults below (the ctest smoke run passes -runs=N, the
# benchmark bench/fuzz.sh a million). Crashing inputs are written to WORKDIR/artifacts/.
set -euo pipefail
bin=$1 name=$2 work=$3
shift 3
root=$(cd "$(dirname "$0")/.." && pwd)
shopt -s nullglob globstar

regressions=("$root"/fuzz/regressions/"$name"/*)
if ((${#regressions[@]})); then
  echo "== $name: replaying ${#regressions[@]} regression input(s)"
  "$bin" -timeout=10 "${regressions[@]}" 2>"$work.replay.log" || { cat "$work.replay.log"; exit 1; }
fi

case $name in
  msr|mqsim|disksim|blkparse|spc|open_trace)
    extra=("$root"/workloads/traces/** "$root"/tests/data/**) ;;
  platform) extra=("$root"/platforms/*.yaml "$root"/bench/*.yaml "$root"/tests/data/**/*.yaml) ;;
  job_file) extra=("$root"/workloads/**/*.yaml "$root"/tests/data/**/*.yaml) ;;
  *) extra=() ;;
esac
rm -rf "$work"
mkdir -p "$work/seeds" "$work/corpus" "$work/artifacts"
cp "$root"/fuzz/corpus/"$name"/* "$work/seeds/"
n=0
for f in "${extra[@]}"; do  # a seed need not be long: inputs are cut at -max_len anyway
  [[ -f $f ]] && head -c 65536 "$f" >"$work/seeds/extra-$((n++))-$(basename "$f")"
done
echo "== $name: fuzzing from $(ls "$work/seeds" | wc -l) seed(s)"
# The trace readers allocate 64-128 KiB buffers per file: with ASan's default 256 MiB quarantine
# every open maps fresh pages, 3x slower. A smaller one still catches a use after free soon after.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=16"
# Every malformed line is a thrown WorkloadError, and at each throw ASan unpoisons the shadow of
# the whole thread stack: with a 1 MiB stack instead of 8 the trace targets run about 1.3x faster.
case $name in msr|mqsim|disksim|blkparse|spc|open_trace) ulimit -s 1024 ;; esac
exec "$bin" -seed=1 -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
     -artifact_prefix="$work/artifacts/" "$@" "$work/corpus" "$work/seeds"
