#!/usr/bin/env bash
# The release fuzz (make fuzz; not part of make test): the property generators of
# tests/properties.rs at FUZZ_CASES histories per provider (default 125,000: 1,250,000 across
# the ten providers), then the JS non-JSON value generator (tests/js/non-json-fuzz.mjs) at
# FUZZ_JS_CASES histories (default 20,000, each rendered for the ten providers). Any
# violation, loss or panic fails the run with the smallest failing history.
set -euo pipefail
cd "$(dirname "$0")/.."
CASES="${FUZZ_CASES:-125000}"
JS_CASES="${FUZZ_JS_CASES:-20000}"

printf '\n==> tests/properties.rs: %s histories per provider × 10 providers\n' "$CASES"
start=$(date +%s)
TURNWIRE_PROPTEST_CASES="$CASES" cargo test --quiet --test properties -- --test-threads=2
echo "properties: $((CASES * 10)) histories, 0 violations, 0 losses, 0 panics ($(( $(date +%s) - start )) s)"

printf '\n==> tests/js/non-json-fuzz.mjs against pkg/\n'
[ -f pkg/dist/node.mjs ] || { echo "fuzz: pkg/ is not built (make fuzz builds it)" >&2; exit 1; }
node scripts/fuzz-non-json.mjs "$JS_CASES"
