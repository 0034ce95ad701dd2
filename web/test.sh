#!/usr/bin/env bash
# The browser test: builds the page (web/build.sh), installs the test's two npm packages
# (playwright-core, pngjs; pinned in web/package-lock.json) when missing, and runs web/test.mjs
# in Debian's headless Chromium (installed by .ci/setup). Its screenshots go to web/out/.
set -euo pipefail
cd "$(dirname "$0")/.."
web/build.sh
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
