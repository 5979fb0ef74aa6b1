// Node: `turnwire/init` in a process where nothing else imported the package (node --test runs
// every test file in its own process), initialised from the `turnwire/wasm` export.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import * as glue from "turnwire/init";
import { defineInitSuite } from "./init-suite.mjs";

const load = () => glue.initSync({ module: readFileSync(new URL(import.meta.resolve("turnwire/wasm"))) });
defineInitSuite(glue, load, "node", { describe, test, assert });
