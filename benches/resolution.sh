#!/usr/bin/env bash
# The speed targets of "any scene at any resolution" (release build, 2 threads):
#
#   - the seed scene at ten times its particles (about 30,000) in real time: one simulated second
#     in at most one wall second, substeps included;
#   - the cost per particle-substep of the seed scene at sixteen times its particles within 1.2
#     times its cost at 1x.
#
#   benches/resolution.sh         RUNS (default 3) runs of each, interleaved; prints medians
#
# Each run is FRAMES (default 400: the pours are over by then) frames; its speed is the median
# substep over the last half of its frames, as the headless report gives it.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/slosh
frames=${FRAMES:-400}
runs=${RUNS:-3}

# The first (top-level) value of a field of the report: `materials` repeats `particles`.
field() { grep -o "\"$1\":[0-9.e+-]*" | head -n 1 | cut -d: -f2; }
median() { printf "%s\n" "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
# "particles ms_per_substep substeps_per_simulated_second" of one headless run of the seed.
seed_run() {
  local report
  report=$("$bin" --headless --preset seed --frames "$frames" --threads 2 "$@" | tail -n 1)
  local frame_rate=20
  echo "$(field particles <<<"$report") $(field ms_per_substep_median <<<"$report") \
$(awk -v s="$(field substeps <<<"$report")" -v f="$frames" -v r="$frame_rate" 'BEGIN { print s / f * r }')"
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); medians of $runs runs of $frames frames"
echo
wall=() base=() fine=()
for ((k = 0; k < runs; k++)); do
  read -r n ms substeps < <(seed_run --particles 30000)
  wall+=("$(awk -v ms="$ms" -v s="$substeps" 'BEGIN { print ms * s / 1000 }')")
  read -r n1 ms1 _ < <(seed_run)
  base+=("$(awk -v ms="$ms1" -v n="$n1" 'BEGIN { print ms * 1000 / n }')")
  read -r n16 ms16 _ < <(seed_run --particles 48000)
  fine+=("$(awk -v ms="$ms16" -v n="$n16" 'BEGIN { print ms * 1000 / n }')")
done
echo "seed x10 ($n particles, $substeps substeps per simulated second): $(median "${wall[@]}") wall seconds per simulated second (target: at most 1)"
b=$(median "${base[@]}") f=$(median "${fine[@]}")
echo "cost per particle-substep: 1x ($n1 particles) $b us, 16x ($n16 particles) $f us, ratio $(awk -v b="$b" -v f="$f" 'BEGIN { printf "%.2f", f / b }') (target: at most 1.2)"
