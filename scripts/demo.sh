#!/usr/bin/env bash
# `make demo`: the live agent session of examples/live/ (run scripts/build-package.sh first;
# `make demo` does both). It installs the packed package into a scratch folder the way a user
# would, starts the strict mock providers (turnwire/mock) on 127.0.0.1 and runs the session
# through turnwire's fetch shim. Exit status 0 only when every wire format served a turn and no
# request was rejected.
#
#   TURNWIRE_DEMO_LIVE=1   talk to the real providers whose API keys are set instead (README.md)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
DEMO="$ROOT/target/demo"

TARBALL="$(ls -t pkg/turnwire-*.tgz 2>/dev/null | head -n 1 || true)"
[ -n "$TARBALL" ] || { echo "demo: no pkg/turnwire-*.tgz: run scripts/build-package.sh (or make package) first" >&2; exit 1; }

rm -rf "$DEMO"
mkdir -p "$DEMO"
printf '{ "name": "turnwire-demo", "private": true, "type": "module" }\n' >"$DEMO/package.json"
(cd "$DEMO" && npm install --no-audit --no-fund --no-package-lock --loglevel=error "$ROOT/$TARBALL" >/dev/null)
cp examples/live/*.mjs "$DEMO/"
printf '\n==> the live demo (examples/live/demo.mjs)\n\n'
cd "$DEMO" && exec node demo.mjs
