#!/usr/bin/env bash
# Whether the window's automatic resolution (`--particles auto`, its default) keeps real time,
# and whether the scenes' cost model (src/cost.rs) agrees with what their frames cost, in the
# window and headless (target: within 25%).
#
#   benches/auto_resolution.sh [PRESET ...]     default: volcano smoke jelly dam
#
# Needs a display (DISPLAY); on a machine without one, `Xvfb :79 -screen 0 1280x720x24 &` and
# DISPLAY=:79. For each preset, RUNS (default 1) rounds, the presets interleaved in each:
#
#   1. the window at --particles auto for FRAMES (default 400) displayed frames. Its exit line
#      gives the count auto chose (`particles_asked`), what the model says a frame of the scene
#      costs at that count once poured (`cost_model.predicted_ms_per_frame`), the median wall
#      milliseconds of its last 200 simulation frames (`sim_ms_per_frame`), the main thread's
#      milliseconds per displayed frame (`frame_ms`: simulation and drawing), and its simulated
#      and wall seconds. A displayed frame runs at most 2 simulation frames: where drawing is
#      slow (a software rasterizer), 400 displayed frames are some 40 simulated seconds, on a
#      GPU at 60 Hz some 7 (raise FRAMES there: volcano's rock takes 25 seconds to pile up);
#   2. a headless run of the same scene at that count, as many frames as the window simulated;
#      its `ms_per_frame_median` is over the last half of them.
#
# Columns: `asked` the count auto chose; `predicted`, `window`, `headless` milliseconds per
# simulation frame; `w/p` and `h/p` their ratios to the prediction, and `25%` whether both are
# within 0.75 to 1.25; `sim share` the share of real time the window's simulation took (window
# ms × frame rate / 1000; auto aims at 0.5) and `rt` whether that is at most 0.5 (the simulation
# keeps real time with the other half left for drawing); `draw ms` the main thread's
# milliseconds per displayed frame; `speed` the window's simulated seconds per wall second, its
# drawing included (1: real time; where drawing is slow it holds the window back, not the
# simulation). Medians of the rounds.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${SLOSH:-target/release/slosh}
if [[ -z ${SLOSH:-} ]]; then cargo build --release --quiet; fi
frames=${FRAMES:-400}
runs=${RUNS:-1}
presets=("$@")
if ((${#presets[@]} == 0)); then presets=(volcano smoke jelly dam); fi
if [[ -z ${DISPLAY:-} ]]; then
  echo "auto_resolution.sh: needs a display (DISPLAY); under Xvfb: Xvfb :79 -screen 0 1280x720x24 & DISPLAY=:79" >&2
  exit 2
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The value at PATH (dots between keys) of the JSON line on standard input, or "null".
json() {
  python3 -c '
import json, sys
value = json.loads(sys.stdin.read())
for key in sys.argv[1].split("."):
    value = value.get(key) if isinstance(value, dict) else None
print("null" if value is None else value)' "$1"
}
median() { printf "%s\n" "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

declare -A asked predicted window headless share draw speed
renderer=""
for run in $(seq "$runs"); do
  for preset in "${presets[@]}"; do
    line=$("$bin" --preset "$preset" --frames "$frames" | tail -n 1)
    echo "round $run $preset window: $line" >&2
    renderer=$(json gl_renderer <<<"$line")
    count=$(json particles_asked <<<"$line")
    simulated=$(json simulated_seconds <<<"$line")
    rate=20 # every embedded preset runs 20 simulation frames a second
    sim_frames=$(awk -v s="$simulated" -v r="$rate" 'BEGIN { printf "%d", s * r + 0.5 }')
    args=()
    if [[ $count != null ]]; then args=(--particles "$count"); fi
    report=$("$bin" --headless --preset "$preset" --frames "$((sim_frames > 20 ? sim_frames : 20))" "${args[@]}" | tail -n 1)
    echo "round $run $preset headless: $report" >&2
    asked[$preset]+=" $count"
    predicted[$preset]+=" $(json cost_model.predicted_ms_per_frame <<<"$line")"
    window[$preset]+=" $(json sim_ms_per_frame <<<"$line")"
    headless[$preset]+=" $(json ms_per_frame_median <<<"$report")"
    share[$preset]+=" $(awk -v ms="$(json sim_ms_per_frame <<<"$line")" -v r="$rate" 'BEGIN { print ms * r / 1000 }')"
    draw[$preset]+=" $(json frame_ms <<<"$line")"
    speed[$preset]+=" $(awk -v s="$simulated" -v w="$(json wall_seconds <<<"$line")" 'BEGIN { print s / w }')"
  done
done

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); renderer: $renderer"
echo "window: $frames displayed frames a run; medians of $runs round(s); milliseconds per simulation frame"
printf "%-8s %6s %9s %7s %8s %5s %5s %4s %9s %3s %8s %5s\n" preset asked predicted window headless w/p h/p 25% "sim share" rt "draw ms" speed
for preset in "${presets[@]}"; do
  # shellcheck disable=SC2086
  read -r n p w h s d v <<<"$(median ${asked[$preset]}) $(median ${predicted[$preset]}) $(median ${window[$preset]}) $(median ${headless[$preset]}) $(median ${share[$preset]}) $(median ${draw[$preset]}) $(median ${speed[$preset]})"
  awk -v preset="$preset" -v n="$n" -v p="$p" -v w="$w" -v h="$h" -v s="$s" -v d="$d" -v v="$v" 'BEGIN {
    wp = w / p; hp = h / p
    within = (wp >= 0.75 && wp <= 1.25 && hp >= 0.75 && hp <= 1.25) ? "yes" : "no"
    printf "%-8s %6d %9.1f %7.1f %8.1f %5.2f %5.2f %4s %9.2f %3s %8.0f %5.2f\n", preset, n, p, w, h, wp, hp, within, s, (s <= 0.5 ? "yes" : "no"), d, v
  }'
done
