#!/usr/bin/env bash
# Installs what the JS suite needs besides Node (scripts/test-js.sh calls this; safe to run again,
# every step checks first):
#   - Chromium from apt, only when /usr/bin/chromium is missing (needs root, as in CI);
#   - deno, bun, wrangler (+ miniflare, workerd) and playwright-core from npm into
#     target/js-runtimes, pinned by tests/js/runtimes/package-lock.json, reinstalled only when
#     that lockfile changed since the last install.
# `npm install` on a copy of the lockfile, not `npm ci`: the lock lists only the platform
# packages of deno/bun the registry here serves (linux x64), and `npm ci` rejects such a lock as
# out of sync. The versions installed are still exactly the locked ones.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
SRC="$ROOT/tests/js/runtimes"
DEST="${TURNWIRE_RUNTIMES:-$ROOT/target/js-runtimes}"
CHROMIUM="${TURNWIRE_CHROMIUM:-/usr/bin/chromium}"

die() { printf 'install-runtimes: %s\n' "$*" >&2; exit 1; }
step() { printf '\n==> %s\n' "$*"; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }

mkdir -p "$DEST"
# Two `make test` at once must not install into the same folder together.
exec 9>"$DEST/.install.lock"
flock -w 600 9 || die "another install into $DEST is still running after 10 min"

# TURNWIRE_SKIP_CHROMIUM=1: the caller tests no browser this time (TURNWIRE_JS_RUNTIMES=deno,…).
if [ "${TURNWIRE_SKIP_CHROMIUM:-}" != 1 ] && [ ! -x "$CHROMIUM" ]; then
  [ "$(id -u)" = 0 ] || die "$CHROMIUM is missing: install Debian's chromium (apt-get install chromium), or set TURNWIRE_CHROMIUM, or run with TURNWIRE_JS_RUNTIMES=node to test Node only"
  command -v apt-get >/dev/null || die "$CHROMIUM is missing and there is no apt-get to install it"
  step "apt-get install chromium ($CHROMIUM is missing)"
  t=$(now)
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  [ -x "$CHROMIUM" ] || die "apt-get installed chromium but $CHROMIUM is still missing"
  echo "installed $("$CHROMIUM" --version 2>/dev/null | head -n 1) in $(since "$t")"
fi

if ! cmp -s "$SRC/package-lock.json" "$DEST/.turnwire-lock" 2>/dev/null \
  || [ ! -x "$DEST/node_modules/.bin/deno" ] || [ ! -x "$DEST/node_modules/.bin/bun" ] \
  || [ ! -x "$DEST/node_modules/.bin/wrangler" ] || [ ! -d "$DEST/node_modules/playwright-core" ]; then
  step "npm install (deno, bun, wrangler, playwright-core) into $DEST"
  t=$(now)
  rm -rf "$DEST/node_modules" "$DEST/.turnwire-lock"
  cp "$SRC/package.json" "$SRC/package-lock.json" "$DEST/"
  (cd "$DEST" && npm install --no-audit --no-fund --loglevel=error)
  cp "$SRC/package-lock.json" "$DEST/.turnwire-lock"
  echo "installed in $(since "$t")"
fi
