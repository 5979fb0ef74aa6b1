# turnwire — the project's entry points. `make demo` and `make test` work on a fresh machine.
.PHONY: setup demo demo-render test fmt lint unit package test-js test-wasm bless bench fuzz

CARGO ?= cargo

setup:
	@bash scripts/setup.sh

## The main job: a live agent session through the fetch shim, every turn to the next provider's
## strict mock server (examples/live/), ending with `requests: N accepted, M rejected`.
demo: package
	bash scripts/demo.sh

## Render every example session for every provider and validate each body (Rust only).
demo-render: setup
	$(CARGO) run --quiet --example demo -- examples/sessions

## Everything CI checks: the Rust checks, then the npm package built, packed and tested.
test: setup fmt lint unit test-js test-wasm

fmt:
	$(CARGO) fmt --all -- --check

lint:
	$(CARGO) clippy --all-targets -- -D warnings
	$(CARGO) clippy --lib --test wasm --features wasm --target wasm32-unknown-unknown -- -D warnings
	$(CARGO) clippy --lib --no-default-features --features wasm-render --target wasm32-unknown-unknown -- -D warnings
	$(CARGO) clippy --lib --no-default-features --features wasm-stream --target wasm32-unknown-unknown -- -D warnings

unit:
	$(CARGO) test --all-targets
	$(CARGO) test --doc
	$(CARGO) test --lib --features wasm wasm::

## The npm package (WebAssembly): builds pkg/ and packs pkg/turnwire-<version>.tgz.
package: setup
	bash scripts/build-package.sh

## The JavaScript tests (tests/js/), run against the packed package.
test-js: package
	bash scripts/test-js.sh

## The binding layer's wasm-bindgen tests (tests/wasm.rs) in Node and headless Chromium.
test-wasm: package
	bash scripts/test-wasm.sh

## Re-bless the golden files after an intended change (review the diff!).
bless:
	TURNWIRE_BLESS=1 $(CARGO) test --test golden

## Benchmarks against pi-ai, the AI SDK and LangChain (not part of `make test`): bench/RESULTS.md.
bench: package
	bash bench/run.sh

## The release fuzz (not part of `make test`): 1,000,000 generated damaged histories across the
## eight providers (FUZZ_CASES per provider) and the JS non-JSON value generator (FUZZ_JS_CASES).
fuzz: package
	bash scripts/fuzz.sh
