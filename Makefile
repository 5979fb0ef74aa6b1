# turnwire — the project's entry points. `make demo` and `make test` work on a fresh machine.
.PHONY: setup demo test fmt lint unit bless

CARGO ?= cargo

setup:
	@bash scripts/setup.sh

## The main job: render every example session for every implemented provider, validate each body.
demo: setup
	$(CARGO) run --quiet --example demo -- examples/sessions

## Everything CI checks.
test: setup fmt lint unit

fmt:
	$(CARGO) fmt --all -- --check

lint:
	$(CARGO) clippy --all-targets -- -D warnings

unit:
	$(CARGO) test --all-targets
	$(CARGO) test --doc

## Re-bless the golden files after an intended change (review the diff!).
bless:
	TURNWIRE_BLESS=1 $(CARGO) test --test golden
