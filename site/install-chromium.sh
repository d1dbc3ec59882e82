#!/usr/bin/env bash
# Chromium for the Playwright tests: Debian's package (Playwright's own download is not
# reachable on these machines). Uses CHROMIUM if set, else /usr/bin/chromium;
# CHROMIUM=playwright means Playwright's own browser, installed by `playwright install`.
set -euo pipefail
browser="${CHROMIUM:-/usr/bin/chromium}"
if [ "$browser" = playwright ] || [ -x "$browser" ]; then
    exit 0
fi
if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    echo "installing Debian's chromium for the browser tests" >&2
    export DEBIAN_FRONTEND=noninteractive
    for attempt in 1 2 3; do
        if apt-get update -qq && apt-get install -y -qq chromium >/dev/null; then
            exit 0
        fi
        echo "apt-get failed (attempt $attempt), retrying in 10 s" >&2
        sleep 10
    done
fi
cat >&2 <<MSG
Chromium is needed for the browser tests and was not found at $browser.
Install it (Debian/Ubuntu: sudo apt-get install chromium) or point CHROMIUM at a Chromium binary.
MSG
exit 1
