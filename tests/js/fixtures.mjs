// Reads tests/fixtures into the form the suite takes: [{ name, files: { "<file>.json": text } }],
// sorted by name, one entry per folder with a transcript.json. Node, Deno and Bun read it here;
// workerd and Chromium get the same data as one JSON document (tests/js/runtimes/run.mjs).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export function loadFixtures(dir) {
  if (!dir || !existsSync(dir)) throw new Error(`fixtures folder not found: ${dir} (set TURNWIRE_FIXTURES)`);
  return readdirSync(dir)
    .filter((name) => existsSync(join(dir, name, "transcript.json")))
    .sort()
    .map((name) => ({
      name,
      files: Object.fromEntries(
        readdirSync(join(dir, name))
          .filter((f) => f.endsWith(".json"))
          .sort()
          .map((f) => [f, readFileSync(join(dir, name, f), "utf8")]),
      ),
    }));
}
