// Reads tests/fixtures into the form the suite takes, one array sorted by name:
//   - a transcript fixture per folder with a transcript.json: { name, files: { "<file>.json": text } };
//   - a stream fixture per tests/fixtures/streams/<provider>/<case>.events:
//     { name: "streams/<provider>/<case>", stream: { provider, case }, files: { "events": text, "expected.json": text } };
//   - a SigV4 case per tests/fixtures/sigv4/<case>/ (sigv4-suite.mjs):
//     { name: "sigv4/<case>", sigv4: { case }, files: { "request.txt": text, "context.json": text, "header-….txt": text } }.
// Node, Deno and Bun read it here; workerd and Chromium get the same data as one JSON document
// (tests/js/runtimes/run.mjs).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export function loadFixtures(dir) {
  if (!dir || !existsSync(dir)) throw new Error(`fixtures folder not found: ${dir} (set TURNWIRE_FIXTURES)`);
  const transcripts = readdirSync(dir)
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
  const streamsDir = join(dir, "streams");
  const streams = existsSync(streamsDir)
    ? readdirSync(streamsDir)
        .sort()
        .flatMap((provider) =>
          readdirSync(join(streamsDir, provider))
            .filter((f) => f.endsWith(".events"))
            .sort()
            .map((f) => {
              const name = f.slice(0, -".events".length);
              return {
                name: `streams/${provider}/${name}`,
                stream: { provider, case: name },
                files: {
                  events: readFileSync(join(streamsDir, provider, f), "utf8"),
                  "expected.json": readFileSync(join(streamsDir, provider, `${name}.expected.json`), "utf8"),
                },
              };
            }),
        )
    : [];
  const sigv4Dir = join(dir, "sigv4");
  const sigv4 = existsSync(sigv4Dir)
    ? readdirSync(sigv4Dir)
        .filter((name) => existsSync(join(sigv4Dir, name, "request.txt")))
        .sort()
        .map((name) => ({
          name: `sigv4/${name}`,
          sigv4: { case: name },
          files: Object.fromEntries(
            readdirSync(join(sigv4Dir, name))
              .filter((f) => f === "context.json" || (f.endsWith(".txt") && !f.startsWith("query-")))
              .sort()
              .map((f) => [f, readFileSync(join(sigv4Dir, name, f), "utf8")]),
          ),
        }))
    : [];
  return [...transcripts, ...streams, ...sigv4];
}
