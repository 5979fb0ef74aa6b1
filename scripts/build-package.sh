#!/usr/bin/env bash
# Builds the npm package into pkg/ and packs it (pkg/turnwire-<version>.tgz).
#
#   cargo (release, wasm32: the main module, --features wasm; the render and stream modules of
#   turnwire/render, --features wasm-render / wasm-stream) → wasm-bindgen (web, nodejs, module
#   targets, and web without the default wasm URL for the edge-light entry; web only for the
#   other two) → npm binaryen's wasm-opt -Oz (one .wasm per module)
#   → tsc for js/ (the runtime entries and the JS half of the API, as ESM and as CommonJS)
#   → one index.d.ts (scripts/merge-dts.mjs) → tsc for js/mock/ → pkg-template filled in
#   → npm pack.
#
# Safe to run again: every install step checks first. What it installs when missing:
#   - the Rust target wasm32-unknown-unknown (rustup);
#   - wasm-bindgen-cli at exactly the wasm-bindgen version in Cargo.lock (cargo install,
#     ~3.5 min; deliberately WITHOUT --locked, which fails: see shared/TOOLCHAIN.md §5);
#   - build/node_modules from build/package-lock.json (typescript, binaryen).
# Never uses a system wasm-opt: Debian's binaryen 108 writes a module that fails at load.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"

CRATE=turnwire
TARGET=wasm32-unknown-unknown
STAGE="$ROOT/target/$CRATE-pkg"   # wasm-bindgen output and the tsc staging folders
OUT="$ROOT/pkg"                   # the package (generated, not committed)
TOOLS="$ROOT/build"               # npm tools for the build, pinned by build/package-lock.json

step() { printf '\n==> %s\n' "$*"; }
die() { printf 'build-package: %s\n' "$*" >&2; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }

# --- tools -----------------------------------------------------------------------------------
command -v cargo >/dev/null || die "cargo is not installed; install Rust with rustup first"
command -v node >/dev/null || die "node is not installed; Node.js >= 20 is needed to build and test the npm package"
command -v npm >/dev/null || die "npm is not installed (it comes with Node.js)"
node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' \
  || die "Node.js >= 20 is needed, found $(node --version)"

if command -v rustup >/dev/null; then
  if ! rustup target list --installed | grep -qx "$TARGET"; then
    step "rustup target add $TARGET"
    rustup target add "$TARGET"
  fi
fi

# The CLI must be the exact version of the wasm-bindgen crate in Cargo.lock.
WB_VERSION="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)"
[ -n "$WB_VERSION" ] || die "wasm-bindgen is not in Cargo.lock (run: cargo fetch)"
have_wb="$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)"
if [ "$have_wb" != "$WB_VERSION" ]; then
  step "cargo install wasm-bindgen-cli --version $WB_VERSION (found: ${have_wb:-none}; takes a few minutes)"
  t=$(now)
  cargo install wasm-bindgen-cli --version "$WB_VERSION"
  echo "installed in $(since "$t")"
fi
have_wb="$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)"
[ "$have_wb" = "$WB_VERSION" ] \
  || die "wasm-bindgen on PATH is ${have_wb:-missing}, Cargo.lock wants $WB_VERSION (is ~/.cargo/bin first on PATH?)"

# npm tools: reinstall only when the lockfile changed since the last install.
if ! cmp -s "$TOOLS/package-lock.json" "$TOOLS/node_modules/.turnwire-lock" 2>/dev/null \
  || [ ! -x "$TOOLS/node_modules/.bin/wasm-opt" ] || [ ! -x "$TOOLS/node_modules/.bin/tsc" ]; then
  step "npm ci (build tools: typescript, binaryen)"
  (cd "$TOOLS" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$TOOLS/package-lock.json" "$TOOLS/node_modules/.turnwire-lock"
fi
WASM_OPT="$TOOLS/node_modules/.bin/wasm-opt"
TSC="$TOOLS/node_modules/.bin/tsc"

# --- build -----------------------------------------------------------------------------------
# Three modules from one crate, each its own feature set: the main module (every export), the
# render module `turnwire/render` loads, and the stream module that loads on its first streamed
# turn. Cargo writes each to the same file, so each is copied out before the next build. The
# main module (Node, Deno, Bun, edge functions) is built for speed (Cargo profile release-speed),
# the two a browser downloads for size (release).
MODULES="target/$CRATE-modules"
mkdir -p "$MODULES"
for spec in "$CRATE:wasm:release-speed" "${CRATE}_render:wasm-render:release" "${CRATE}_stream:wasm-stream:release"; do
  name="${spec%%:*}"
  rest="${spec#*:}"
  features="${rest%%:*}"
  profile="${rest#*:}"
  step "cargo build --profile $profile --target $TARGET --no-default-features --features $features"
  t=$(now)
  cargo build --quiet --profile "$profile" --target "$TARGET" --lib --no-default-features --features "$features"
  cp "target/$TARGET/$profile/$CRATE.wasm" "$MODULES/$name.wasm"
  echo "built in $(since "$t")"
done
WASM="$MODULES/$CRATE.wasm"

step "wasm-bindgen $WB_VERSION (web, nodejs, module)"
rm -rf "$STAGE"
mkdir -p "$STAGE"
for t in web nodejs module; do
  wasm-bindgen --target "$t" --out-dir "$STAGE/$t" "$WASM"
done
# The edge-light entry's glue: the web target without the default wasm URL (a bundler would ship
# the .wasm a second time as an asset for it); patched below.
wasm-bindgen --target web --omit-default-module-path --out-dir "$STAGE/edge" "$WASM"
cmp -s "$STAGE/edge/${CRATE}_bg.wasm" "$STAGE/web/${CRATE}_bg.wasm" || die "the edge glue's wasm differs from the web glue's"
# The render and stream modules: the web glue only (the render entries use it in every host).
for name in ${CRATE}_render ${CRATE}_stream; do
  wasm-bindgen --target web --out-dir "$STAGE/web" "$MODULES/$name.wasm"
done

rm -rf "$OUT"
mkdir -p "$OUT/dist"

step "wasm-opt -Oz (npm binaryen $("$WASM_OPT" --version | awk '{ print $3 }'))"
t=$(now)
# The .wasm is the same for every wasm-bindgen target: optimise one, ship one.
for name in $CRATE ${CRATE}_render ${CRATE}_stream; do
  "$WASM_OPT" -Oz "$STAGE/web/${name}_bg.wasm" -o "$OUT/dist/${name}_bg.wasm"
done
echo "optimised in $(since "$t")"

# The web glue is the core the Node, browser and workerd entries import; ./init exposes it for
# hosts that load the wasm themselves.
cp "$STAGE/web/$CRATE.js" "$STAGE/web/$CRATE.d.ts" "$OUT/dist/"
cp "$STAGE/web/${CRATE}_render.js" "$STAGE/web/${CRATE}_stream.js" "$OUT/dist/"
# The JS the wasm module imports (js/wasm-imports/, as wasm-bindgen snippets): every glue loads
# it from ./snippets/<crate-hash>/… beside itself, the same files for every target.
for t in nodejs module edge; do
  diff -r "$STAGE/web/snippets" "$STAGE/$t/snippets" >/dev/null \
    || die "the $t glue's snippets differ from the web glue's"
done
cp -R "$STAGE/web/snippets" "$OUT/dist/"
# require(): the nodejs glue, which reads the same .wasm beside it (dist/node.cjs adds the JS API).
# It require()s the snippets, which are ES modules; Node before 20.19 cannot, so each gets a
# CommonJS twin (.cjs: its one `export function` made a module.exports member) and the glue
# requires that instead.
cp "$STAGE/nodejs/$CRATE.js" "$OUT/dist/node-glue.cjs"
node scripts/snippets-cjs.mjs "$OUT/dist/node-glue.cjs" "$OUT/dist"
# Deno: the module glue (`import source`), needs no file permission (dist/deno.mjs adds the JS API).
cp "$STAGE/module/$CRATE.js" "$OUT/dist/deno-glue.mjs"
# Vercel / Next.js edge (dist/edge-light.mjs adds the JS API): the glue without a default URL,
# whose initSync tests the module's brand instead of `instanceof WebAssembly.Module`. Next's and
# Vercel's local edge sandboxes compile a `?module` import in Node's main realm and hand it to
# the edge `vm` context, where that instanceof is false and the glue would then throw on
# `new WebAssembly.Module(module)`. The brand (Symbol.toStringTag on each realm's
# Module.prototype) is the same in every realm.
node -e '
  const fs = require("fs");
  const [from, to] = process.argv.slice(1);
  const text = fs.readFileSync(from, "utf8");
  const check = "if (!(module instanceof WebAssembly.Module)) {";
  const parts = text.split(check);
  if (parts.length !== 2) { console.error(`edge glue: expected one "${check}", found ${parts.length - 1}`); process.exit(1); }
  if (text.includes("import.meta.url")) { console.error("edge glue: still has a default import.meta.url"); process.exit(1); }
  fs.writeFileSync(to, parts.join("if (Object.prototype.toString.call(module) !== \"[object WebAssembly.Module]\") {"));
' "$STAGE/edge/$CRATE.js" "$OUT/dist/edge-glue.mjs" || die "could not patch the edge glue's initSync (wasm-bindgen changed?)"

# The JavaScript half of the API (fetch shims, SSE framing, ProviderError): every entry exports
# it. JS_MODULES are compiled twice, as ESM (.mjs, with the entries) and as CommonJS (.cjs, for
# dist/node.cjs); DTS_MODULES are the public ones whose declarations go into index.d.ts.
JS_MODULES="agent ai-sdk api classify compact conversation-ext core errors handle-guard idb-store session-entry json-schema kv-store providers redis-store relay-fetch repairing-fetch router session session-queue sse store-error stream tools turn-limits turn-owner turn-runner turn-wait types"
DTS_MODULES="types errors providers sse turn-limits stream tools router agent compact session store-error kv-store idb-store redis-store ai-sdk repairing-fetch sigv4"
# the redirect policy and the redaction of secrets (internal: streamTurn, repairingFetch, the relay)
JS_MODULES="$JS_MODULES safe-fetch secrets"
# options read fail-closed and JSON Schema patterns in linear time (internal: the router, the agent, tools)
JS_MODULES="$JS_MODULES options pattern"
# the provider table: paths, headers, auth and wire API of each provider (internal: providerRequest,
# repairingFetch, the relay and turnwire/mock)
JS_MODULES="$JS_MODULES provider-http"
# the host table (generated from src/hosts.rs) and the hosts' paths and auth (internal: providerRequest)
JS_MODULES="$JS_MODULES hosts.generated host-http"
# the account label a turn derives from its key when the caller names none (internal: streamTurn)
JS_MODULES="$JS_MODULES account"
# AWS Signature Version 4 on WebCrypto (signAwsRequest; streamTurn's Bedrock auth, the mock's check)
JS_MODULES="$JS_MODULES sigv4 sigv4-parts"

# js/hosts.generated.mts is committed, written by `turnwire hosts --ts` from src/hosts.rs;
# tests/hosts.rs fails when it differs (regenerate it with that command), so the package build
# compiles no native binary.

step "tsc js/ (runtime entries and the JS API, ESM)"
mkdir -p "$STAGE/ts"
cp js/*.mts js/*.d.ts js/tsconfig.json "$STAGE/ts/"
cp "$STAGE/web/$CRATE.d.ts" "$STAGE/web/${CRATE}_render.d.ts" "$STAGE/web/${CRATE}_stream.d.ts" "$STAGE/ts/"
cp "$STAGE/module/$CRATE.d.ts" "$STAGE/ts/deno-glue.d.mts"
cp "$STAGE/edge/$CRATE.d.ts" "$STAGE/ts/edge-glue.d.mts"
printf '{ "type": "module" }\n' >"$STAGE/ts/package.json"
"$TSC" -p "$STAGE/ts/tsconfig.json" --outDir "$OUT/dist" --declaration --declarationDir "$STAGE/decl"
for entry in node browser workerd edge-light deno api render-node render-browser; do
  [ -f "$OUT/dist/$entry.mjs" ] || die "tsc did not write dist/$entry.mjs"
done

step "tsc js/ (the CommonJS entry and the JS API as CommonJS)"
# Staged as .cts files (relative .mjs imports renamed .cjs) in a folder without "type": "module",
# beside the nodejs glue's declarations, so that every import resolves as it will in dist/.
mkdir -p "$STAGE/cjs"
for m in $JS_MODULES; do
  sed -E 's#(from "\./[a-z0-9.-]+)\.mjs";#\1.cjs";#' "js/$m.mts" >"$STAGE/cjs/$m.cts"
done
cp js/node.cts js/tsconfig.json js/tsconfig.cjs.json "$STAGE/cjs/"
cp "$STAGE/nodejs/$CRATE.d.ts" "$STAGE/cjs/$CRATE.d.ts"
cp "$STAGE/nodejs/$CRATE.d.ts" "$STAGE/cjs/node-glue.d.cts"
printf '{}\n' >"$STAGE/cjs/package.json"
"$TSC" -p "$STAGE/cjs/tsconfig.cjs.json" --outDir "$OUT/dist"
for m in node $JS_MODULES; do
  [ -f "$OUT/dist/$m.cjs" ] || die "tsc did not write dist/$m.cjs"
done

step "index.d.ts (the glue's declarations + the JS API's)"
# The nodejs glue's .d.ts is the wasm API (the web one adds init, initSync and the raw exports);
# the same text serves as ESM and as CommonJS declarations.
dts=()
for m in $DTS_MODULES; do dts+=("$STAGE/decl/$m.d.mts"); done
node scripts/merge-dts.mjs "$OUT/dist/index.d.ts" "$STAGE/nodejs/$CRATE.d.ts" "${dts[@]}"
cp "$OUT/dist/index.d.ts" "$OUT/dist/index.d.cts"
# turnwire/render: a subset of the same declarations (js/render.d.ts names it).
cp js/render.d.ts "$OUT/dist/render.d.ts"
# turnwire/file-store (Node, Bun, Deno): dist/file-store.mjs from tsc above; its declaration
# refers to index.d.ts for the store's types.
cp pkg-template/file-store.d.mts "$OUT/dist/file-store.d.mts"
[ -f "$OUT/dist/file-store.mjs" ] || die "tsc did not write dist/file-store.mjs"

step "tsc js/mock (turnwire/mock)"
# Staged beside the API declarations (index.d.ts), a one-line node.d.mts and the provider table's
# declarations (whose `./turnwire.js` is index.d.ts there), so that the mock's `../node.mjs`,
# `../index.js`, `../provider-http.mjs` and `../sigv4-parts.mjs` (the SigV4 check of auth.mts)
# imports resolve as inside the package
# (js/mock/tsconfig.json).
mkdir -p "$STAGE/ts-mock/mock"
cp -R js/mock/. "$STAGE/ts-mock/mock/"
cp "$OUT/dist/index.d.ts" "$STAGE/ts-mock/index.d.ts"
printf 'export * from "./index.js";\n' >"$STAGE/ts-mock/node.d.mts"
cp "$STAGE/decl/provider-http.d.mts" "$STAGE/ts-mock/provider-http.d.mts"
cp "$STAGE/decl/sigv4.d.mts" "$STAGE/decl/sigv4-parts.d.mts" "$STAGE/ts-mock/"
printf 'export * from "./index.js";\n' >"$STAGE/ts-mock/turnwire.d.ts"
printf '{ "type": "module" }\n' >"$STAGE/ts-mock/package.json"
"$TSC" -p "$STAGE/ts-mock/mock/tsconfig.json" --outDir "$OUT/dist/mock"
[ -f "$OUT/dist/mock/index.mjs" ] && [ -f "$OUT/dist/mock/index.d.mts" ] \
  || die "tsc did not write dist/mock/index.mjs and index.d.mts"

step "package.json, README, licenses"
VERSION="$(awk -F'"' '/^version = / { print $2; exit }' Cargo.toml)"
DESCRIPTION="$(awk -F'"' '/^description = / { print $2; exit }' Cargo.toml)"
node -e '
  const fs = require("fs");
  const [template, out, version, description] = process.argv.slice(1);
  const text = fs.readFileSync(template, "utf8")
    .replace("@VERSION@", version)
    .replace("@DESCRIPTION@", description.replace(/"/g, "\\\""));
  JSON.parse(text); // fail on a broken template
  fs.writeFileSync(out, text);
' pkg-template/package.json "$OUT/package.json" "$VERSION" "$DESCRIPTION"
cp pkg-template/README.md "$OUT/README.md"
cp LICENSE-MIT LICENSE-APACHE "$OUT/"

step "npm pack"
TARBALL="$(cd "$OUT" && npm pack --silent --pack-destination "$OUT" 2>/dev/null | tail -n 1)"
[ -f "$OUT/$TARBALL" ] || die "npm pack did not write a tarball"

for name in $CRATE ${CRATE}_render ${CRATE}_stream; do
  raw=$(wc -c <"$OUT/dist/${name}_bg.wasm")
  gz=$(gzip -9 -c "$OUT/dist/${name}_bg.wasm" | wc -c)
  printf '\n%s_bg.wasm: %s bytes (gzip -9: %s bytes)' "$name" "$raw" "$gz"
done
printf '\ntarball: %s bytes\n' "$(wc -c <"$OUT/$TARBALL")"
echo "package: $OUT/$TARBALL"
