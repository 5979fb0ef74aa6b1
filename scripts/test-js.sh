#!/usr/bin/env bash
# Tests the packed npm package (run scripts/build-package.sh first; `make test-js` does both).
#
#   1. the golden declarations: pkg/dist/index.d.ts must equal tests/js/expected/index.d.ts
#      (after an intended API change: TURNWIRE_BLESS=1 scripts/test-js.sh, then review the diff);
#   2. a scratch consumer in target/js-consumer installs the tarball the way a user would;
#   3. tsc --noEmit --strict on tests/js/consumer.ts (every export), consumer-cjs.cts,
#      consumer-init.ts, and type-errors.ts (every line must fail to compile);
#   4. the node:test suite, on the Node that runs this script and on the current LTS lines
#      (binaries from the npm registry, checked to render the same digest): Node ESM, Node CJS, a plain CommonJS file, the README example,
#      `turnwire/render` (render.test.mjs) and
#      `turnwire/init` used before init, with --expose-gc for the memory tests; the strict
#      mock providers (`turnwire/mock`), also driven by the official SDKs (openai,
#      @anthropic-ai/sdk, @google/genai from tests/js/mock-sdk, installed once into
#      target/js-mock-sdk; the AI SDK, ai + @ai-sdk/*, from there too, for ai-sdk.test.mjs;
#      the official clients also for repairing-fetch.test.mjs; pi-ai for pi-ai.test.mjs);
#      streamTurn end to end against the mock providers; the SSE
#      parser against eventsource-parser (also from tests/js/mock-sdk); and fault injection
#      (tests/js/faults.test.mjs: hostile servers on 127.0.0.1); redirects and secrets
#      (tests/js/secrets.test.mjs: two servers on 127.0.0.1 as two origins, a planted key);
#      session stores (tests/js/stores.test.mjs: kill -9 loops of two writer processes, optimistic
#      concurrency, redisStore against a redis-server it starts: Debian's, installed when missing);
#   4b. typed bodies (tests/js/sdk-types): every golden body type-checks as its provider's body
#      type, and each body type is assignable to the official SDK's request parameter type;
#      every golden body of the five APIs with an official SDK (Bedrock Converse: the AWS
#      SDK's), whole, has only members the SDK's request type knows (closed.ts, planted.ts
#      proves the check can fail); and the validators' field lists
#      (src/providers/request_fields.rs) are regenerated from the SDKs and must not differ;
#   5. the same suite in Deno, Bun, workerd (wrangler bundle, Miniflare) and headless Chromium
#      (tests/js/runtimes/run.mjs), and the check that all six runtimes render byte-identical
#      bodies, equal to the Rust goldens. tests/js/runtimes/install.sh installs those runtimes
#      first (once; Chromium from apt only when /usr/bin/chromium is missing);
#   5b. the recipes (tests/js/recipes, each installed from its own lockfile): the edge-light
#      entry in @edge-runtime/vm with code generation off (esbuild bundle, wasm injected from
#      Node's realm), a Hono app (app.request and @hono/node-server), a Vite build in Chromium,
#      and a Next.js app (Turbopack build, next start, a Node.js and an edge route handler); each
#      runs the same suite and reports the same digest;
#   6. the fault injection, secrets, limits, session stores and hostile values suites again in
#      Deno (`deno test`) and Bun (`bun test`).
#
#   TURNWIRE_JS_RUNTIMES=node         Node only (skips steps 5 and 6 and their installs)
#   TURNWIRE_JS_RUNTIMES=deno,bun     steps 5 and 6 for some runtimes (deno, bun, workerd, chromium,
#                                     deno-session, edge) and recipes (edge-light, hono, vite, next)
#   TURNWIRE_JS_CONSUMER=<dir>        the scratch consumer (default target/js-consumer)
#   TURNWIRE_NODE_LTS="22.23.3 …"     the Node LTS versions step 4 also runs on ("" for none)
#   TURNWIRE_NODE_TESTS="a.test.mjs …" step 4 runs only these files (while working on them)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
TSC="$ROOT/build/node_modules/.bin/tsc"
CONSUMER="${TURNWIRE_JS_CONSUMER:-$ROOT/target/js-consumer}"
MOCK_SDK="$ROOT/target/js-mock-sdk"
RUNTIMES="$ROOT/target/js-runtimes"
ONLY="${TURNWIRE_JS_RUNTIMES:-all}"
# The maintained Node LTS lines (Node 20 reached end of life in April 2026), newest patch each.
NODE_LTS="${TURNWIRE_NODE_LTS-22.23.3 24.21.0 26.12.1}"
NODE_PKG="node-$(node -p 'process.platform')-$(node -p 'process.arch')"

die() { printf 'test-js: %s\n' "$*" >&2; exit 1; }
step() { printf '\n==> %s\n' "$*"; }

# npm ci of SRC's package.json and package-lock.json into DIR, only when that lockfile changed
# since the last install (or one of the PACKAGES it must hold is missing); WHAT names them.
pinned_install() {
  local src="$1" dir="$2" what="$3"
  shift 3
  local fresh=1
  cmp -s "$src/package-lock.json" "$dir/.turnwire-lock" 2>/dev/null || fresh=0
  for p in "$@"; do [ -d "$dir/node_modules/$p" ] || fresh=0; done
  [ "$fresh" = 1 ] && return 0
  step "npm ci ($what) into $dir"
  rm -rf "$dir"
  mkdir -p "$dir"
  cp "$src/package.json" "$src/package-lock.json" "$dir/"
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$src/package-lock.json" "$dir/.turnwire-lock"
}

TARBALL="$(ls -t pkg/turnwire-*.tgz 2>/dev/null | head -n 1 || true)"
[ -n "$TARBALL" ] || die "no pkg/turnwire-*.tgz: run scripts/build-package.sh (or make package) first"
[ -x "$TSC" ] || die "build/node_modules is missing: run scripts/build-package.sh first"

step "golden declarations (tests/js/expected/index.d.ts)"
if [ -n "${TURNWIRE_BLESS:-}" ]; then
  mkdir -p tests/js/expected
  cp pkg/dist/index.d.ts tests/js/expected/index.d.ts
  echo "blessed tests/js/expected/index.d.ts: review the diff"
elif ! diff -u tests/js/expected/index.d.ts pkg/dist/index.d.ts; then
  die "pkg/dist/index.d.ts differs from tests/js/expected/index.d.ts (re-bless with TURNWIRE_BLESS=1 if intended)"
fi
cmp -s pkg/dist/index.d.ts pkg/dist/index.d.cts || die "index.d.cts differs from index.d.ts"

# Packaging linters, pinned by tests/js/package-lint/package-lock.json; reinstalled only when
# that lockfile changed. attw: the Node 16+ resolutions (node10 knows no "exports"); `./wasm`
# is the .wasm file itself, not a module; the subpath entries (`turnwire/render`, `/init`,
# `/file-store`, `/mock`) are ESM only by design, so CommonJS loads them with import().
LINT="$ROOT/target/js-package-lint"
pinned_install tests/js/package-lint "$LINT" "publint, @arethetypeswrong/cli"
step "package lint: publint --strict, attw, licenses in the tarball"
"$LINT/node_modules/.bin/publint" --strict pkg || die "publint found problems in pkg/"
"$LINT/node_modules/.bin/attw" "$TARBALL" --profile node16 --exclude-entrypoints ./wasm \
  --ignore-rules cjs-resolves-to-esm || die "attw found problems in $TARBALL"
listing="$(tar -tzf "$TARBALL")"
for f in LICENSE-MIT LICENSE-APACHE; do
  grep -qx "package/$f" <<<"$listing" || die "$TARBALL has no $f"
done

step "scratch consumer: npm install $TARBALL"
rm -rf "$CONSUMER"
mkdir -p "$CONSUMER"
printf '{ "name": "turnwire-js-tests", "private": true, "type": "module" }\n' >"$CONSUMER/package.json"
(cd "$CONSUMER" && npm install --no-audit --no-fund --no-package-lock --loglevel=error "$ROOT/$TARBALL")
cp tests/js/*.mjs tests/js/*.cjs tests/js/*.ts tests/js/*.cts tests/js/tsconfig*.json "$CONSUMER/"
cp tests/js/runtimes/*.mjs "$CONSUMER/"
# The examples the tests run, beside the installed package (they import "turnwire").
cp examples/cli/agent.mjs "$CONSUMER/cli-agent.mjs"
cp examples/edge/worker.mjs "$CONSUMER/edge-worker.mjs"
mkdir -p "$CONSUMER/chat" && cp examples/browser-chat/* "$CONSUMER/chat/"

step "type tests (tsc $("$TSC" --version | awk '{ print $2 }') --noEmit --strict)"
# Every statement after the marker in type-errors.ts must sit under a @ts-expect-error line.
awk '
  /^\/\/ ---- every line below must fail to compile ----$/ { on = 1; next }
  !on { next }
  /^\/\/ @ts-expect-error/ { armed = 1; n++; next }
  /^[[:space:]]*$/ || /^\/\// { next }
  !armed { printf "type-errors.ts:%d: no @ts-expect-error above: %s\n", NR, $0; bad = 1 }
  { armed = 0 }
  END { if (!on) { print "type-errors.ts: marker line missing"; bad = 1 } else if (n < 10) { print "type-errors.ts: too few cases"; bad = 1 }; exit bad }
' tests/js/type-errors.ts || die "type-errors.ts is malformed"
(cd "$CONSUMER" && "$TSC" -p tsconfig.json --noEmit --strict && "$TSC" -p tsconfig.init.json --noEmit --strict \
  && "$TSC" -p tsconfig.nodisposable.json --noEmit --strict) \
  || die "type check failed"
echo "consumer.ts, consumer-cjs.cts, consumer-init.ts, consumer-dom.ts, consumer-mock.ts, consumer-stores.ts, type-errors.ts and consumer-nodisposable.ts (lib es2022 only) type-check"

# The SDKs whose stream parsers mock-sdk.test.mjs runs against the mock providers, pinned by
# tests/js/mock-sdk/package-lock.json; reinstalled only when that lockfile changed.
pinned_install tests/js/mock-sdk "$MOCK_SDK" "openai, @anthropic-ai/sdk, @google/genai, @aws-sdk/client-bedrock-runtime, ai + @ai-sdk/*, pi-ai, eventsource-parser" \
  openai @anthropic-ai/sdk @google/genai @aws-sdk/client-bedrock-runtime eventsource-parser ai @mariozechner/pi-ai

step "typed bodies: every golden body as its provider's body type, each body type assignable to the official SDK's request type"
SDK_TYPES="$CONSUMER/sdk-types"
rm -rf "$SDK_TYPES"
mkdir -p "$SDK_TYPES/node_modules/@anthropic-ai" "$SDK_TYPES/node_modules/@google" "$SDK_TYPES/node_modules/@aws-sdk"
printf '{ "name": "turnwire-sdk-types", "private": true, "type": "module" }\n' >"$SDK_TYPES/package.json"
cp tests/js/sdk-types/assignable.ts tests/js/sdk-types/closed.ts tests/js/sdk-types/planted.ts tests/js/sdk-types/tsconfig.json "$SDK_TYPES/"
ln -s "$CONSUMER/node_modules/turnwire" "$SDK_TYPES/node_modules/turnwire"
ln -s "$MOCK_SDK/node_modules/openai" "$SDK_TYPES/node_modules/openai"
ln -s "$MOCK_SDK/node_modules/@anthropic-ai/sdk" "$SDK_TYPES/node_modules/@anthropic-ai/sdk"
ln -s "$MOCK_SDK/node_modules/@google/genai" "$SDK_TYPES/node_modules/@google/genai"
ln -s "$MOCK_SDK/node_modules/@aws-sdk/client-bedrock-runtime" "$SDK_TYPES/node_modules/@aws-sdk/client-bedrock-runtime"
node tests/js/sdk-types/gen-golden-bodies.mjs tests/fixtures "$SDK_TYPES/golden-bodies.ts" "$SDK_TYPES/golden-sdk-bodies.ts"
(cd "$SDK_TYPES" && "$TSC" -p tsconfig.json) || die "a body type does not describe a golden body, or is not assignable to the SDK's type, or a golden body has a member the SDK's request type does not know (golden-sdk-bodies.ts)"
# The strict validators' field lists (src/providers/request_fields.rs, ANT-50, OAC-30, ORS-30,
# GEM-30, MIS-20) are the pinned SDKs' request fields: regenerated here, they must not differ.
node tests/js/sdk-types/gen-request-fields.mjs "$MOCK_SDK/node_modules" "$ROOT/build/node_modules/typescript" "$SDK_TYPES/request_fields.rs"
diff -u src/providers/request_fields.rs "$SDK_TYPES/request_fields.rs" \
  || die "the pinned SDKs' request fields changed: run node tests/js/sdk-types/gen-request-fields.mjs target/js-mock-sdk/node_modules build/node_modules/typescript src/providers/request_fields.rs, review the new fields and their rules"
echo "AnthropicBody, ChatBody, ResponsesBody, GeminiBody, BedrockConverseBody and OllamaBody type every golden body; every anthropic, openai-chat, openai-responses, gemini and bedrock-converse golden body has only members the SDKs' request types know; the validators' field lists are the SDKs'; assignable to @anthropic-ai/sdk $(node -p "require('$MOCK_SDK/node_modules/@anthropic-ai/sdk/package.json').version"), openai $(node -p "require('$MOCK_SDK/node_modules/openai/package.json').version"), @google/genai $(node -p "require('$MOCK_SDK/node_modules/@google/genai/package.json').version"), @aws-sdk/client-bedrock-runtime $(node -p "require('$MOCK_SDK/node_modules/@aws-sdk/client-bedrock-runtime/package.json').version")"

# The other runtimes are installed first: the README test runs its Deno and Bun examples too.
if [ "$ONLY" != node ]; then
  step "Deno, Bun, workerd, Chromium: install (once)"
  skip_chromium=0
  case ",$ONLY," in ,all,|*,chromium,*|*,vite,*) ;; *) skip_chromium=1 ;; esac
  TURNWIRE_RUNTIMES="$RUNTIMES" TURNWIRE_SKIP_CHROMIUM="$skip_chromium" bash tests/js/runtimes/install.sh
fi

# The recipes (tests/js/recipes/<name>: @edge-runtime/vm + esbuild, Hono, Vite, Next.js), each
# installed from its own lockfile into target/js-recipes/<name> (again only when that lockfile
# changed), then its app files, the suite modules (lib/) and a copy of the installed package
# (node_modules/turnwire, as npm installs the tarball: no symlink) are laid into that folder.
RECIPES="$ROOT/target/js-recipes"
SUITE_MODULES=(tests/js/suite.mjs tests/js/models.mjs tests/js/repair-suite.mjs tests/js/stream-suite.mjs tests/js/late-2026-suite.mjs tests/js/sigv4-suite.mjs
  tests/js/non-json-fuzz.mjs tests/js/runtimes/harness.mjs tests/js/runtimes/assert.mjs tests/js/runtimes/edge-assert.mjs)
recipe_packages() {
  case "$1" in
    edge-light) echo "@edge-runtime/vm esbuild" ;;
    hono) echo "hono @hono/node-server" ;;
    vite) echo "vite" ;;
    next) echo "next react react-dom" ;;
  esac
}
if [ "$ONLY" != node ]; then
  for recipe in edge-light hono vite next; do
    case ",$ONLY," in ,all,|*,"$recipe",*) ;; *) continue ;; esac
    dir="$RECIPES/$recipe"
    # shellcheck disable=SC2046
    pinned_install "tests/js/recipes/$recipe" "$dir" "the $recipe recipe: $(recipe_packages "$recipe")" $(recipe_packages "$recipe")
    cp -R "tests/js/recipes/$recipe/." "$dir/"
    rm -rf "$dir/node_modules/turnwire"
    mkdir -p "$dir/lib"
    cp "${SUITE_MODULES[@]}" "$dir/lib/"
    cp -R "$CONSUMER/node_modules/turnwire" "$dir/node_modules/turnwire"
  done
fi

NODE_TESTS=(
  esm.test.mjs cjs.test.mjs require.test.cjs readme.test.mjs init.test.mjs
  mock.test.mjs mock-sdk.test.mjs ai-sdk.test.mjs repairing-fetch.test.mjs pi-ai.test.mjs stream-mock.test.mjs sse-conformance.test.mjs faults.test.mjs secrets.test.mjs limits.test.mjs hostile-values.test.mjs
  render.test.mjs conversation.test.mjs tools.test.mjs agent.test.mjs compact.test.mjs session.test.mjs cli.test.mjs request-options.test.mjs prompt-caching.test.mjs thinking-modes.test.mjs count-tokens.test.mjs server-tools.test.mjs
  stores.test.mjs provider-http.test.mjs sigv4.test.mjs classify.test.mjs event-stream.test.mjs mock-bedrock-auth.test.mjs mock-converse.test.mjs converse-ollama.test.mjs
  hosts.test.mjs
)
if [ -n "${TURNWIRE_NODE_TESTS:-}" ]; then read -r -a NODE_TESTS <<<"$TURNWIRE_NODE_TESTS"; fi
# The Redis client stores.test.mjs drives redisStore with (pinned by tests/js/redis), and the
# redis-server it starts: Debian's package, installed when missing (needs root, as in CI).
REDIS_CLIENT="$ROOT/target/js-redis"
pinned_install tests/js/redis "$REDIS_CLIENT" "redis (node-redis, for redisStore)" redis
if ! command -v redis-server >/dev/null 2>&1; then
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || die "redis-server is missing: install Debian's redis-server (apt-get install redis-server)"
  step "apt-get install redis-server (stores.test.mjs starts one)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  # the package starts a system service; the tests start their own on a unix socket
  command -v redis-server >/dev/null || die "apt-get installed redis-server but it is not on PATH"
fi
export TURNWIRE_REDIS_CLIENT="$REDIS_CLIENT"

# Runs the node:test suite in the consumer with NODE (a node binary) and REPORTER; the digest of
# the fixtures' bodies goes to DIGESTS.
node_suite() {
  local node="$1" reporter="$2" digests="$3"
  (
    cd "$CONSUMER"
    export TURNWIRE_FIXTURES="$ROOT/tests/fixtures"
    export TURNWIRE_README="$ROOT/README.md"
    export TURNWIRE_DIGESTS="$digests"
    export TURNWIRE_MOCK_SDK="$MOCK_SDK"
    if [ "$ONLY" != node ]; then export TURNWIRE_RUNTIMES="$RUNTIMES"; fi
    PATH="$(dirname "$(command -v "$node")"):$PATH" "$node" --expose-gc --test --test-reporter="$reporter" "${NODE_TESTS[@]}"
  )
}

step "node:test (Node $(node --version): ESM, CJS, require, README, turnwire/init, turnwire/mock, streamTurn, SSE, fault injection)"
node_suite node spec "$CONSUMER/digests"

# The current Node LTS lines run the same suite; their binaries come from the npm registry
# (the node-<platform>-<arch> packages), pinned here, installed once into target/js-node-lts.
# Each must render the fixtures to the same digest as the Node above.
for version in $NODE_LTS; do
  major="${version%%.*}"
  dir="$ROOT/target/js-node-lts/$version"
  bin="$dir/node_modules/$NODE_PKG/bin/node"
  if [ ! -x "$bin" ]; then
    step "npm install $NODE_PKG@$version into $dir"
    rm -rf "$dir" && mkdir -p "$dir"
    (cd "$dir" && npm install --no-save --no-audit --no-fund --no-package-lock --loglevel=error "$NODE_PKG@$version")
  fi
  [ "$("$bin" --version)" = "v$version" ] || die "$bin is not Node $version"
  step "node:test on Node $version (LTS line $major)"
  node_suite "$bin" dot "$CONSUMER/digests-node$major"
  for label in node-esm node-cjs; do
    want="$(node -p "require('$CONSUMER/digests/$label.json').digest")"
    got="$(node -p "require('$CONSUMER/digests-node$major/$label.json').digest")"
    [ "$got" = "$want" ] || die "Node $version ($label) renders the fixtures to $got, Node $(node --version) to $want"
  done
  echo "Node $version: the suite passes; the fixtures render to the same digest ($want)"
done

if [ "$ONLY" = node ]; then
  echo "TURNWIRE_JS_RUNTIMES=node: not running Deno, Bun, workerd and Chromium"
  exit 0
fi

step "the suite in Deno, Bun, workerd, Chromium and the recipes (edge-light, Hono, Vite, Next.js); one digest"
(
  cd "$CONSUMER"
  export TURNWIRE_FIXTURES="$ROOT/tests/fixtures"
  export TURNWIRE_DIGESTS="$CONSUMER/digests"
  export TURNWIRE_RUNTIMES="$RUNTIMES"
  export TURNWIRE_RECIPES="$RECIPES"
  # the Hono and Next.js recipes also run on the Node LTS lines
  lts_bins=""
  for version in $NODE_LTS; do lts_bins="$lts_bins $ROOT/target/js-node-lts/$version/node_modules/$NODE_PKG/bin/node"; done
  export TURNWIRE_NODE_LTS_BINS="$lts_bins"
  if [ "$ONLY" != all ]; then export TURNWIRE_ONLY="$ONLY"; fi
  node run.mjs
)

step "fault injection, redirects and secrets, limits, session stores, hostile values (faults, secrets, limits, stores, hostile-values .test.mjs) in Deno and Bun"
(
  cd "$CONSUMER"
  case ",$ONLY," in ,all,|*,deno,*) "$RUNTIMES/node_modules/.bin/deno" test -A --no-check --quiet faults.test.mjs secrets.test.mjs limits.test.mjs stores.test.mjs hostile-values.test.mjs ;; esac
  case ",$ONLY," in ,all,|*,bun,*) "$RUNTIMES/node_modules/.bin/bun" test --timeout 120000 ./faults.test.mjs ./secrets.test.mjs ./limits.test.mjs ./stores.test.mjs ./hostile-values.test.mjs ;; esac
)
