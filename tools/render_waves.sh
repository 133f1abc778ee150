#!/usr/bin/env bash
# Renders a waveform to a PNG without a display: a virtual X server (xvfb-run), GTKWave with a
# save file and a Tcl script (zoom to fit, then signal readiness), and a grab of the screen
# (ImageMagick's import). Debian packages: gtkwave, xvfb, xauth, imagemagick.
#
# Usage: tools/render_waves.sh WAVE.vcd|WAVE.fst OUT.png [SAVE.gtkw]   (default: the view ssdsim
# wrote beside the waveform, WAVE.gtkw)
set -euo pipefail
if (($# < 2)); then
  echo "usage: $0 WAVE.vcd|WAVE.fst OUT.png [SAVE.gtkw]" >&2
  exit 2
fi
wave="$(realpath "$1")"
out="$(realpath -m "$2")"
save="$(realpath -m "${3:-${1%.*}.gtkw}")"
for tool in gtkwave xvfb-run import; do
  command -v "$tool" >/dev/null || { echo "render_waves: '$tool' is missing (tools/install-deps.sh installs it)" >&2; exit 2; }
done
[[ -f "$wave" ]] || { echo "render_waves: cannot read waveform '$1'" >&2; exit 2; }
[[ -f "$save" ]] || { echo "render_waves: cannot read save file '${3:-${1%.*}.gtkw}'" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/ready.tcl" <<TCL
gtkwave::/Time/Zoom/Zoom_Best_Fit
set marker [open "$work/ready" w]
close \$marker
TCL
export wave save out work
xvfb-run -a -s "-screen 0 1600x900x24" bash -c '
  gtkwave -S "$work/ready.tcl" "$wave" "$save" > "$work/gtkwave.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 200); do [[ -f "$work/ready" ]] && break; sleep 0.1; done
  if [[ ! -f "$work/ready" ]]; then kill $pid 2>/dev/null; cat "$work/gtkwave.log" >&2; exit 3; fi
  sleep 1  # let the window finish drawing
  import -window root "$out"
  kill $pid 2>/dev/null || true
'
echo "$out"
