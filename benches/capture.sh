#!/usr/bin/env bash
# What the GIF capture costs the window's main thread (the target: at most 2 ms a frame).
#
#   benches/capture.sh [PRESET]     RUNS (default 3) runs of each, interleaved; prints medians
#
# Needs a display (DISPLAY) and means something only on a GPU: under a software rasterizer the
# screen's copy waits for the frame to be rasterized on the CPU. The table names the renderer.
#
# Three runs of FRAMES (default 300) frames each:
#   - `off`:  screenshot mode, no capture;
#   - `gif`:  `--gif`, which captures every frame; screenshot mode steps one simulation frame per
#             rendered frame, so `off` and `gif` do the same work but the capture;
#   - `live`: the window as people use it, its replay buffer taking a frame every 1/20 s.
# `frame_ms` is the median main-thread time of a frame before its hand-over to the screen;
# `capture_ms` the median of the capture's part (copy, shrink and the read-back a frame later)
# in the frames that capture. The capture's cost is `gif`'s frame_ms less `off`'s.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${SLOSH:-target/release/slosh}
if [[ -z ${SLOSH:-} ]]; then cargo build --release --quiet; fi
preset=${1:-dam}
frames=${FRAMES:-300}
runs=${RUNS:-3}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The number after "NAME": in a JSON line.
field() { grep -o "\"$1\":[0-9.e+-]*" | head -n 1 | cut -d: -f2; }
median() { printf "%s\n" "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

declare -A frame_ms capture_ms
renderer=""
for run in $(seq "$runs"); do
  for mode in off gif live; do
    case $mode in
      off) args=(--screenshot "$scratch/off.png") ;;
      gif) args=(--gif "$scratch/on.gif") ;;
      live) args=() ;;
    esac
    report=$("$bin" --preset "$preset" --frames "$frames" "${args[@]}" | tail -n 1)
    frame_ms[$mode]+=" $(field frame_ms <<<"$report")"
    capture_ms[$mode]+=" $(field capture_ms <<<"$report")"
    renderer=$(grep -o '"gl_renderer":"[^"]*"' <<<"$report" | cut -d'"' -f4)
    echo "run $run $mode: $report" >&2
  done
done

echo "renderer: $renderer; preset $preset, $frames frames, medians of $runs runs"
printf "%-6s %10s %12s\n" mode frame_ms capture_ms
for mode in off gif live; do
  # shellcheck disable=SC2086
  printf "%-6s %10.3f %12.3f\n" "$mode" "$(median ${frame_ms[$mode]})" "$(median ${capture_ms[$mode]})"
done
