#!/usr/bin/env bash
# The binding layer's tests (tests/wasm.rs) inside WebAssembly, with wasm-bindgen-test, in Node
# and in headless Chromium. `make test` runs it after `make package`, which installs the
# wasm32 target and wasm-bindgen-cli (whose wasm-bindgen-test-runner runs these tests).
#
# Installs when missing (root + apt, as in CI): Debian's chromium and chromium-driver.
#   TURNWIRE_WASM_BROWSER=0   Node only.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"

die() { printf 'test-wasm: %s\n' "$*" >&2; exit 1; }
step() { printf '\n==> %s\n' "$*"; }

WB_VERSION="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)"
have="$(wasm-bindgen-test-runner --version 2>/dev/null | awk '{ print $2 }' || true)"
[ "$have" = "$WB_VERSION" ] \
  || die "wasm-bindgen-test-runner is ${have:-missing}, Cargo.lock wants $WB_VERSION: run scripts/build-package.sh (it installs wasm-bindgen-cli)"

export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
TEST=(cargo test --target wasm32-unknown-unknown --features wasm --test wasm)

step "wasm-bindgen-test in Node"
"${TEST[@]}"

if [ "${TURNWIRE_WASM_BROWSER:-1}" = 0 ]; then
  exit 0
fi
if ! command -v chromedriver >/dev/null || [ ! -x /usr/bin/chromium ]; then
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null \
    || die "chromium and chromedriver are missing: apt-get install chromium chromium-driver (as root), or TURNWIRE_WASM_BROWSER=0"
  step "apt-get install chromium chromium-driver"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi
step "wasm-bindgen-test in headless Chromium ($(chromedriver --version | head -n 1))"
WASM_BINDGEN_USE_BROWSER=1 "${TEST[@]}"
