#!/usr/bin/env bash
# What the look costs a frame: the window's `frame_ms` (median main-thread time of a frame) and
# `splat_ms` for each preset, two programs interleaved, medians of RUNS runs.
#
#   BASE=path/to/old/slosh benches/look.sh [PRESET...]     (default: dam volcano flood kettle)
#
# NEW is target/release/slosh unless set. Needs a display (DISPLAY; Xvfb will do). Under a
# software rasterizer (llvmpipe) the figures are the CPU's drawing, not a GPU's: the table names
# the renderer.
set -euo pipefail
cd "$(dirname "$0")/.."
new=${NEW:-target/release/slosh}
base=${BASE:?BASE names the program to compare with}
frames=${FRAMES:-300}
runs=${RUNS:-3}
presets=("$@")
[[ ${#presets[@]} -gt 0 ]] || presets=(dam volcano flood kettle)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
field() { grep -o "\"$1\":[^,}]*" | head -n 1 | cut -d: -f2- | tr -d '"'; }
median() { printf "%s\n" "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
declare -A frame splat
renderer=""
for preset in "${presets[@]}"; do
  for run in $(seq "$runs"); do
    for which in base new; do
      bin=$base; [[ $which == new ]] && bin=$new
      report=$("$bin" --preset "$preset" --frames "$frames" --screenshot "$scratch/x.png" | tail -n 1)
      frame[$preset.$which]+=" $(field frame_ms <<<"$report")"
      splat[$preset.$which]+=" $(field splat_ms <<<"$report")"
      renderer=$(field gl_renderer <<<"$report")
    done
  done
done
echo "renderer: $renderer; $frames frames, medians of $runs interleaved runs"
printf "%-10s %14s %14s %14s %14s\n" preset "base frame_ms" "new frame_ms" "base splat_ms" "new splat_ms"
for preset in "${presets[@]}"; do
  printf "%-10s %14.1f %14.1f %14.2f %14.2f\n" "$preset" \
    "$(median ${frame[$preset.base]})" "$(median ${frame[$preset.new]})" \
    "$(median ${splat[$preset.base]})" "$(median ${splat[$preset.new]})"
done
