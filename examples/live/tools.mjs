// The demo agent's tools: a small in-memory repository with a failing parser test, as turnwire
// `Tool`s (`runToolCalls` checks their arguments against `parameters` and runs them). Each runs
// locally and deterministically; the first `run_tests` is slow (a cold build), so the agent's
// per-tool time limit stops it in the middle of a batch of parallel calls.

/** The files of the repository the agent works on. */
const repo = new Map([
  ["src/parser.rs", "pub fn parse(s: &str) -> Vec<&str> {\n    s.split(',').collect() // TODO: trim\n}\n"],
  ["src/lib.rs", "pub mod parser;\n"],
  ["tests/parser.rs", "#[test]\nfn trims() {\n    assert_eq!(parse(\"a, b\"), [\"a\", \"b\"]);\n}\n"],
  ["CHANGELOG.md", "# Changelog\n"],
]);

const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason ?? new Error("cancelled"));
    });
  });

/** Whether the parser bug has been fixed (run_tests reads it). */
const fixed = () => repo.get("src/parser.rs")?.includes("trim()") ?? false;
let builds = 0;

const object = (properties, required = Object.keys(properties)) => ({ type: "object", properties, required, additionalProperties: false });
const string = { type: "string" };

/** The tools, declared to every provider and run by `runToolCalls`. */
export const TOOLS = [
  {
    name: "list_files",
    description: "List the files under a directory of the repository.",
    parameters: object({ dir: string }),
    execute: ({ dir }) => [...repo.keys()].filter((p) => p.startsWith(dir)).join("\n"),
  },
  {
    name: "read_file",
    description: "Read one file of the repository.",
    parameters: object({ path: string }),
    execute: ({ path }) => {
      const text = repo.get(path);
      if (text === undefined) throw new Error(`no such file: ${path}`);
      return text;
    },
  },
  {
    name: "grep",
    description: "Find the lines that contain a pattern.",
    parameters: object({ pattern: string }),
    execute: ({ pattern }) => {
      const hits = [];
      for (const [path, text] of repo) {
        text.split("\n").forEach((line, i) => line.includes(pattern) && hits.push(`${path}:${i + 1}: ${line.trim()}`));
      }
      return hits.join("\n") || "no matches";
    },
  },
  {
    name: "write_file",
    description: "Replace the content of a file.",
    parameters: object({ path: string, content: string }),
    execute: ({ path, content }) => {
      repo.set(path, content);
      return `wrote ${content.length} bytes to ${path}`;
    },
  },
  {
    name: "run_tests",
    description: "Run the test suite.",
    parameters: object({}),
    execute: async (_args, { signal }) => {
      // The first run is a cold build: long enough for the agent's time limit to stop it.
      if (builds++ === 0) await sleep(60_000, signal);
      return fixed() ? "test result: ok. 1 passed; 0 failed" : "test result: FAILED. 0 passed; 1 failed (trims)";
    },
  },
];
