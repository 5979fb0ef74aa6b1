#!/usr/bin/env bash
# Installs what the build needs on a fresh machine. Safe to run again: every step checks first.
set -euo pipefail

if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: cargo is not installed; install Rust with rustup first" >&2
  exit 1
fi
if command -v rustup >/dev/null 2>&1; then
  for c in rustfmt clippy; do
    if ! rustup component list --installed 2>/dev/null | grep -q "^$c"; then
      rustup component add "$c"
    fi
  done
fi
if command -v rustup >/dev/null 2>&1; then
  # The npm package and `make lint` build for WebAssembly.
  if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
  fi
fi
cargo fetch --quiet
