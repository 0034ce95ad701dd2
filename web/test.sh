#!/usr/bin/env bash
# The browser test: builds the page (web/build.sh) and the native program, records a replay
# natively for the page to play (web/dist/native.replay), installs the test's two npm packages
# (playwright-core, pngjs; pinned in web/package-lock.json) when missing, and runs web/test.mjs
# in Debian's headless Chromium (installed by .ci/setup). Its screenshots go to web/out/.
# SLOSH_PROFILE names the cargo profile of both builds (release unless set; CI uses `ci`).
set -euo pipefail
cd "$(dirname "$0")/.."
# SLOSH_BIN, when set, names the native program to use instead of building it (.ci/test hands
# over the one its tests built: a build of the program alone resolves other dependency features
# than the tests' build does, and would compile the crate again).
profile=${SLOSH_PROFILE:-release}
web/build.sh
if [ -z "${SLOSH_BIN:-}" ]; then
    cargo build --profile "$profile" --bin slosh
    SLOSH_BIN="$(cargo metadata --format-version 1 --no-deps |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')/$profile/slosh"
fi
export SLOSH_BIN
# Bodies, stirs and a preset of its own: the page must end where the native run ended.
"$SLOSH_BIN" --headless --preset bath --frames 120 --stir random --seed 5 \
    --record web/dist/native.replay >/dev/null
if [ ! -d web/node_modules/playwright-core ] || [ ! -d web/node_modules/pngjs ]; then
    (cd web && npm ci --no-audit --no-fund)
fi
if ! command -v chromium >/dev/null 2>&1; then
    if [ "${SLOSH_SKIP_BROWSER_TEST:-}" = 1 ]; then
        echo "web test: no chromium; SLOSH_SKIP_BROWSER_TEST=1, skipped" >&2
        exit 0
    fi
    echo "web test: chromium is missing: run .ci/setup as root (apt-get install chromium)" >&2
    exit 1
fi
node web/test.mjs
