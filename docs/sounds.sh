#!/usr/bin/env bash
# The sounds in assets/ and their spectrograms in docs/: a few seconds of `dam` (the wave's
# crash against the far wall, the crate knocked along) and of `volcano` (the lava reaching the
# sea: splashes, the hiss, the crackle of rock forming, boiling), each written by a headless run
# with --wav and cut to its last seconds. The spectrograms (docs/spectrogram.py) need numpy and
# matplotlib (pip install numpy matplotlib); nothing in the build or the tests runs this.
#
#     docs/sounds.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release
slosh=target/release/slosh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# sound NAME FRAMES KEEP: NAME's first FRAMES frames, the last KEEP seconds kept.
sound() {
    local name=$1 frames=$2 keep=$3
    "$slosh" --headless --preset "$name" --frames "$frames" --threads 2 --wav "$work/$name.wav" |
        tail -n 1 | python3 -c 'import json, sys; print(sys.argv[1], json.load(sys.stdin)["sound"])' "$name"
    python3 - "$work/$name.wav" "assets/$name.wav" "$keep" <<'PY'
import sys, wave
source, target, keep = sys.argv[1], sys.argv[2], float(sys.argv[3])
with wave.open(source, "rb") as f:
    params = f.getparams()
    frames = f.getnframes()
    start = max(0, frames - int(keep * params.framerate))
    f.setpos(start)
    data = f.readframes(frames - start)
with wave.open(target, "wb") as f:
    f.setparams(params)
    f.writeframes(data)
PY
    python3 docs/spectrogram.py "assets/$name.wav" "docs/$name-spectrogram.png" "$name"
}

sound dam 100 5
sound volcano 100 5
