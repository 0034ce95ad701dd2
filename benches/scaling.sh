#!/usr/bin/env bash
# Headless scaling table, real-time particle count and peak memory of slosh (release build).
#
#   benches/scaling.sh            table at 6,000 / 24,000 / 48,000 / 96,000 particles with 1 and
#                                 2 threads, the seed preset, the real-time count on 1 and 2
#                                 threads, peak memory
#   benches/scaling.sh --soak     also the stability soak: 100,000 frames of `tank --particles
#                                 20000 --stir random` (about an hour on 2 cores)
#
# RUNS (default 3) runs of every row, 1 and 2 threads interleaved; the table shows their medians
# (each run reports the median substep over the last half of its frames), and the speed-up is
# the median of the runs' 1-thread / 2-thread ratios. FRAMES (default 60) frames per run.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/slosh
frames=${FRAMES:-60}
runs=${RUNS:-3}

field() { sed -E "s/.*\"$1\":\"?([0-9a-f.]+)\"?.*/\1/"; }
run() { "$bin" --headless "$@" | tail -n 1; }
median() { printf "%s\n" "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
# Median ms per substep of RUNS runs of the given arguments.
median_ms() {
  local values=() k
  for ((k = 0; k < runs; k++)); do values+=("$(run "$@" | field ms_per_substep_median)"); done
  median "${values[@]}"
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); medians of $runs runs"
echo
echo "| preset | particles | threads | ms per substep | particle-substeps per s | 2 threads / 1 |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
seed_ms=$(median_ms --preset seed --frames 400 --threads 2)
printf "| seed | 3000 | 2 | %s | %.1f M | |\n" "$seed_ms" "$(awk -v ms="$seed_ms" 'BEGIN { print 3000 / ms / 1000 }')"
for particles in 6000 24000 48000 96000; do
  one=() two=() ratios=()
  for ((k = 0; k < runs; k++)); do
    a=$(run --preset tank --particles "$particles" --frames "$frames" --threads 1 | field ms_per_substep_median)
    b=$(run --preset tank --particles "$particles" --frames "$frames" --threads 2 | field ms_per_substep_median)
    one+=("$a") two+=("$b") ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN { print a / b }')")
  done
  for threads in 1 2; do
    if [[ $threads == 1 ]]; then ms=$(median "${one[@]}") ratio=""; else ms=$(median "${two[@]}") ratio=$(printf "%.2f" "$(median "${ratios[@]}")"); fi
    printf "| tank | %s | %s | %s | %.1f M | %s |\n" "$particles" "$threads" "$ms" \
      "$(awk -v n="$particles" -v ms="$ms" 'BEGIN { print n / ms / 1000 }')" "$ratio"
  done
done

# Real-time count on 1 and on 2 threads: the most particles for which one simulated second of
# `tank` (20 frames of 7 substeps) takes at most one wall second, i.e. 140 × ms per substep ≤
# 1000. Bisection over medians of RUNS runs.
echo
for threads in 1 2; do
  low=1000 high=400000
  while (( high - low > low / 50 )); do
    middle=$(( (low + high) / 2 ))
    ms=$(median_ms --preset tank --particles "$middle" --frames 40 --threads "$threads")
    if awk -v ms="$ms" 'BEGIN { exit !(ms * 140 <= 1000) }'; then low=$middle; else high=$middle; fi
  done
  echo "real-time particle count (tank, 140 substeps per simulated second, $threads thread(s)): about $low"
done

peak_kb=$( { /usr/bin/time -f "%M" "$bin" --headless --preset tank --particles 96000 --frames 10 >/dev/null; } 2>&1 | tail -n 1)
echo "peak memory at 96,000 particles: $(( peak_kb / 1024 )) MB"

if [[ "${1:-}" == "--soak" ]]; then
  echo
  echo "soak: tank, 20,000 particles, random stirring, 100,000 frames"
  run --preset tank --particles 20000 --frames 100000 --stir random --seed 1
fi
