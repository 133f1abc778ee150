#!/usr/bin/env bash
# Refactoring check: runs a fixed set of scenarios (every FTL on the tiny platform after a fill,
# steady state for the page-mapping and demand FTLs, a job file, the bundled trace folded onto
# the tiny drive, a waveform run) with two ssdsim binaries and compares their reports with the
# "simulation" section (wall seconds, version) left out. Prints each scenario and "same" or the
# difference; the waveform of the one run that writes one must be byte-identical too. Exits
# non-zero if anything differs. Parameters only the new binary has (a change that adds options)
# are listed once and left out of platform.effective, so their defaults must leave the figures
# unchanged.
# Usage: tools/same-reports.sh OLD_SSDSIM NEW_SSDSIM [workdir]
set -euo pipefail
cd "$(dirname "$0")/.."
old=$1 new=$2 work=${3:-$(mktemp -d)}
export SSDSIM_DATA_DIR=${SSDSIM_DATA_DIR:-$PWD}  # binaries copied elsewhere still find the platforms
tiny=(-p platforms/tiny.yaml --no-vcd -q)
scenarios=()
for ftl in $("$new" ftls | awk '/^[a-z]/ {print $1}'); do
  scenarios+=("ftl-$ftl|${tiny[*]} --ftl $ftl --synthetic random --count 4000 --read-fraction 0.3 --request-bytes 8192")
done
for ftl in page_mapping dftl cast; do
  scenarios+=("steady-$ftl|${tiny[*]} --ftl $ftl --synthetic random --count 3000 --precondition fill+steady")
done
scenarios+=("jobs|${tiny[*]} --jobs workloads/oltp_and_backup.yaml")
scenarios+=("hm0-fold|${tiny[*]} --fold")
scenarios+=("default-vcd|-q --synthetic sequential --count 2000 --read-fraction 1 --request-bytes 131072 --qd 64")
failed=0
for s in "${scenarios[@]}"; do
  name=${s%%|*} args=${s#*|}
  for side in old new; do
    bin=$old; [[ $side == new ]] && bin=$new
    mkdir -p "$work/$side/$name"
    # shellcheck disable=SC2086
    "$bin" run $args --out "$work/$side/$name" >/dev/null 2>"$work/$side/$name/stderr" || echo "exit $?" >>"$work/$side/$name/stderr"
    if [[ -f $work/$side/$name/report.json ]]; then
      jq -S 'del(.simulation)' "$work/$side/$name/report.json" >"$work/$side/$name/compared.json"
    else
      cp "$work/$side/$name/stderr" "$work/$side/$name/compared.json"
    fi
  done
  if [[ -f $work/old/$name/report.json && -f $work/new/$name/report.json ]]; then
    added=$(jq -r --slurpfile o "$work/old/$name/compared.json" \
      '.platform.effective | keys - ($o[0].platform.effective | keys) | join(" ")' "$work/new/$name/compared.json")
    [[ -n $added && -z ${listed:-} ]] && { echo "parameters only the new binary has: $added"; listed=1; }
    jq -S --slurpfile o "$work/old/$name/compared.json" \
      '.platform.effective |= with_entries(select(.key as $k | $o[0].platform.effective | has($k)))' \
      "$work/new/$name/compared.json" >"$work/new/$name/compared.tmp" && mv "$work/new/$name/compared.tmp" "$work/new/$name/compared.json"
  fi
  if [[ -f $work/old/$name/run.vcd ]] && ! cmp -s "$work/old/$name/run.vcd" "$work/new/$name/run.vcd"; then
    echo "$name: DIFFERENT waveform"; failed=1
  elif cmp -s "$work/old/$name/compared.json" "$work/new/$name/compared.json"; then
    echo "$name: same"
  else
    echo "$name: DIFFERENT"; diff "$work/old/$name/compared.json" "$work/new/$name/compared.json" | head -20 || true
    failed=1
  fi
done
exit $failed
