// The suite's host under node:test (esm.test.mjs, cjs.test.mjs): node:assert, the fixtures from
// TURNWIRE_FIXTURES, --expose-gc, and the digest written to $TURNWIRE_DIGESTS/<label>.json for
// tests/js/runtimes/run.mjs to compare with the other runtimes.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { loadFixtures } from "./fixtures.mjs";

export function nodeHost(label) {
  assert.equal(typeof globalThis.gc, "function", "run node with --expose-gc");
  return {
    describe,
    test,
    assert,
    fixtures: loadFixtures(process.env.TURNWIRE_FIXTURES),
    gc: globalThis.gc,
    heapUsed: () => process.memoryUsage().heapUsed,
    report(key, value) {
      const dir = process.env.TURNWIRE_DIGESTS;
      if (key !== "digest" || !dir) return;
      mkdirSync(dir, { recursive: true });
      const runtime = `Node ${process.versions.node} (${label})`;
      writeFileSync(join(dir, `${label.replace(/\W+/g, "-")}.json`), JSON.stringify({ runtime, digest: value }) + "\n");
    },
  };
}
