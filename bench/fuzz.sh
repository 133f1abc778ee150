#!/usr/bin/env bash
# Fuzzing campaign: runs every fuzz target (fuzz/, built by the "sanitize" preset: ASan + UBSan +
# libFuzzer) for at least RUNS executions (default 1,000,000) with a fixed seed, from the same
# seed corpus as the smoke tests (fuzz/run.sh), and prints a Markdown table: target, executions,
# crashes, wall seconds, executions per second. libFuzzer stops at the first crash (or hang,
# leak, out-of-memory): its input is in <build>/fuzz-bench/<target>/artifacts/.
# Usage: bench/fuzz.sh [runs] [target...]   (default: all targets). Two halves can run at once
# on two cores: NO_BUILD=1 skips the build, OUT=dir keeps their outputs apart. PRESET=fuzz-ubsan
# builds the targets with UBSan but without ASan (build-fuzz-ubsan/): ASan unpoisons the whole
# stack shadow at every thrown exception, which holds the trace readers (one WorkloadError per
# malformed line) to a few hundred executions per second. TIMEOUT=s (default 60) is the most one
# input may take: a few hundred bytes of bzip2 can expand to half a million malformed lines, which
# take 13 s to skip in the fuzz build (about 5 s in the release build) -- slow, not wrong, so the
# campaign allows longer than the smoke tests' 10 s.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1000000}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(msr mqsim disksim blkparse spc open_trace platform set_overrides job_file)
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
preset=${PRESET:-sanitize}
build=$(sed -n "/\"name\": \"$preset\"/,/binaryDir/s|.*\"binaryDir\": \"\${sourceDir}/\([^\"]*\)\".*|\1|p" CMakePresets.json)
[[ -n $build ]] || { echo "bench/fuzz.sh: no configure preset '$preset' in CMakePresets.json" >&2; exit 2; }
if [[ -z ${NO_BUILD:-} ]]; then
  cmake --preset "$preset" "${launcher[@]}" >/dev/null
  cmake --build --preset "$preset" --target fuzz_targets >/dev/null
fi
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_stack_use_after_return=0} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
out=${OUT:-$build/fuzz-bench}
mkdir -p "$out"
echo "| target | executions | crashes | wall s | executions / s |"
echo "|---|---:|---:|---:|---:|"
failed=0
for t in "${targets[@]}"; do
  start=$(date +%s%N)
  rc=0
  bash fuzz/run.sh "$build/fuzz/fuzz_$t" "$t" "$out/$t" -runs="$runs" -timeout="${TIMEOUT:-60}" >"$out/$t.log" 2>&1 || rc=$?
  wall=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { print (b - a) / 1e9 }')
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$t.log" | tail -1)
  crashes=$(find "$out/$t/artifacts" -type f 2>/dev/null | wc -l)
  ((rc == 0)) || { ((crashes)) || crashes="failed (rc $rc)"; failed=1; }
  awk -v t="$t" -v n="${execs:-0}" -v c="$crashes" -v w="$wall" \
    'BEGIN { printf "| %s | %d | %s | %.0f | %.0f |\n", t, n, c, w, n / w }'
done
exit $failed
