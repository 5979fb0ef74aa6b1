#!/usr/bin/env bash
# Runs the benchmarks (make bench; not part of make test): installs bench/'s pinned
# devDependencies (pi-ai, the AI SDK, LangChain) from bench/package-lock.json when needed, then
# bench/run.mjs against the package in pkg/ (make package builds it). Writes bench/RESULTS.md.
# No network besides the npm registry for the install: every peer talks to a capturing fetch.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
die() { printf 'bench: %s\n' "$*" >&2; exit 1; }

command -v node >/dev/null || die "node is not installed (Node.js >= 20 is needed)"
node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' \
  || die "Node.js >= 20 is needed, found $(node --version)"
[ -f "$ROOT/pkg/dist/node.mjs" ] && [ -f "$ROOT/pkg/dist/turnwire_bg.wasm" ] \
  || die "pkg/ is not built: run make package (make bench does)"

if ! cmp -s "$HERE/package-lock.json" "$HERE/node_modules/.turnwire-lock" 2>/dev/null; then
  printf '\n==> npm ci (bench/: pi-ai, AI SDK, LangChain)\n'
  (cd "$HERE" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$HERE/package-lock.json" "$HERE/node_modules/.turnwire-lock"
fi

printf '\n==> node bench/run.mjs (2–4 minutes on 2 cores)\n'
cd "$HERE"
node --expose-gc run.mjs

printf '\n==> node bench/file-store.mjs (the file store on a ~50 MB session)\n'
node file-store.mjs

printf '\n==> node bench/first-render.mjs (first and second render of a 160,000-message chat and a ~55 MB agent session)\n'
node --expose-gc first-render.mjs
