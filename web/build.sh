#!/usr/bin/env bash
# Builds the demo for the browser into web/dist/: index.html, slosh.wasm and macroquad's loader
# (mq_js_bundle.js, copied from the macroquad crate this build used). Adds the
# wasm32-unknown-unknown target with rustup when it is missing. Serve the folder with
#     python3 -m http.server 8000 --bind 127.0.0.1 -d web/dist
# and open http://127.0.0.1:8000/. SLOSH_PROFILE names the cargo profile (release unless set;
# CI builds with `ci`).
set -euo pipefail
cd "$(dirname "$0")/.."
target=wasm32-unknown-unknown
profile=${SLOSH_PROFILE:-release}
profile_variable=$(echo "$profile" | tr '[:lower:]-' '[:upper:]_')
if ! rustup target list --installed | grep -qx "$target"; then
    echo "build: adding the $target target (rustup)"
    rustup target add "$target"
fi
# simd128 lets the pair loops' lanes (the `wide` crate) use wasm SIMD; no debug info, stripped.
env RUSTFLAGS="-C target-feature=+simd128" \
    "CARGO_PROFILE_${profile_variable}_DEBUG=false" "CARGO_PROFILE_${profile_variable}_STRIP=true" \
    cargo build --profile "$profile" --target "$target" --bin slosh
# Where cargo put the build (CARGO_TARGET_DIR counts), and the macroquad crate it used.
read -r target_dir macroquad < <(cargo metadata --format-version 1 --filter-platform "$target" |
    python3 -c 'import json, sys, os
meta = json.load(sys.stdin)
crate = next(p["manifest_path"] for p in meta["packages"] if p["name"] == "macroquad")
print(meta["target_directory"], os.path.dirname(crate))')
mkdir -p web/dist
cp "$target_dir/$target/$profile/slosh.wasm" web/dist/
cp "$macroquad/js/mq_js_bundle.js" web/dist/
cp web/index.html web/dist/
echo "build: web/dist ready ($(du -h web/dist/slosh.wasm | cut -f1) of wasm, loader from $macroquad)"
