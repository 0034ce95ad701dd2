#!/usr/bin/env bash
# Makes again the pictures the README and the guide show, from the program as it is now, in
# screenshot mode under a virtual display (Xvfb, which .ci/setup installs):
#   - assets/screenshot.png, assets/flood.png, assets/volcano.png: the README's three;
#   - assets/lava.png: the guide's;
#   - docs/presets.png: every embedded preset after 4 simulated seconds, a montage in the order
#     of `slosh --list-presets` (examples/montage.rs);
#   - assets/volcano.gif: six seconds of the volcano.
# Screenshot mode steps the simulation once per rendered frame, so the pictures do not depend on
# the machine's speed. Usage: docs/pictures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin slosh --example montage
if [[ -z ${DISPLAY:-} ]]; then
    exec xvfb-run -a -s "-screen 0 1280x720x24" "$0" "$@"
fi
bin=target/release/slosh
shot() { "$bin" --preset "$1" --frames "$2" --screenshot "$3" >/dev/null; echo "$3"; }
shot seed 150 assets/screenshot.png
shot flood 30 assets/flood.png
shot lava 120 assets/lava.png
shot volcano 240 assets/volcano.png
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
presets=$("$bin" --list-presets | awk '{ print $1 }')
tiles=()
for preset in $presets; do
    shot "$preset" 240 "$scratch/$preset.png" >/dev/null
    tiles+=("$scratch/$preset.png")
done
target/release/examples/montage docs/presets.png 4 400 "${tiles[@]}"
"$bin" --preset volcano --frames 120 --gif assets/volcano.gif >/dev/null
echo assets/volcano.gif
