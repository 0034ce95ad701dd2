#!/usr/bin/env bash
# Headless scaling table, real-time particle count and peak memory of slosh (release build).
#
#   benches/scaling.sh            table at 6,000 / 24,000 / 96,000 particles with 1 and 2 threads,
#                                 the seed preset, the real-time count and peak memory
#   benches/scaling.sh --soak     also the stability soak: 100,000 frames of `dam --particles
#                                 20000 --stir random` (about an hour on 2 cores)
#
# FRAMES (default 60) sets frames per timing run; medians are over the last half of them.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/slosh
frames=${FRAMES:-60}

field() { sed -E "s/.*\"$1\":\"?([0-9a-f.]+)\"?.*/\1/"; }
run() { "$bin" --headless "$@" | tail -n 1; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo
echo "| preset | particles | threads | ms per substep (median) | particle-substeps per s |"
echo "| --- | ---: | ---: | ---: | ---: |"
json=$(run --preset seed --frames 400 --threads 2)
printf "| seed | %s | 2 | %s | %s |\n" "$(echo "$json" | field particles)" \
  "$(echo "$json" | field ms_per_substep_median)" "$(echo "$json" | field particle_substeps_per_s)"
for particles in 6000 24000 48000 96000; do
  for threads in 1 2; do
    json=$(run --preset dam --particles "$particles" --frames "$frames" --threads "$threads")
    printf "| dam | %s | %s | %s | %s |\n" "$particles" "$threads" \
      "$(echo "$json" | field ms_per_substep_median)" "$(echo "$json" | field particle_substeps_per_s)"
  done
done

# Real-time count: the most particles for which one simulated second of `dam` (20 frames of 7
# substeps) takes at most one wall second, i.e. 140 × ms per substep ≤ 1000. Bisection.
low=1000 high=400000
while (( high - low > low / 50 )); do
  middle=$(( (low + high) / 2 ))
  ms=$(run --preset dam --particles "$middle" --frames 40 --threads 2 | field ms_per_substep_median)
  if awk -v ms="$ms" 'BEGIN { exit !(ms * 140 <= 1000) }'; then low=$middle; else high=$middle; fi
done
echo
echo "real-time particle count (dam, 140 substeps per simulated second, 2 threads): about $low"

peak_kb=$( { /usr/bin/time -f "%M" "$bin" --headless --preset dam --particles 96000 --frames 10 >/dev/null; } 2>&1 | tail -n 1)
echo "peak memory at 96,000 particles: $(( peak_kb / 1024 )) MB"

if [[ "${1:-}" == "--soak" ]]; then
  echo
  echo "soak: dam, 20,000 particles, random stirring, 100,000 frames"
  run --preset dam --particles 20000 --frames 100000 --stir random --seed 1
fi
